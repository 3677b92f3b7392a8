//! The expression tree, and its printer: `Display` writes the canonical notation, which
//! parses back to the same tree.

use std::fmt;

use serde::Serialize;

/// A byte range of the input: where a term was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = notation::Span))]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

/// An expression with the place it was written. Equality ignores the place, so a printed
/// and re-parsed expression equals the original.
#[derive(Debug, Clone, Serialize)]
pub struct Expr {
    /// What the expression is.
    pub kind: ExprKind,
    /// Where it was written (zero for a tree built by hand).
    #[serde(skip)]
    pub span: Span,
}

impl PartialEq for Expr {
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind
    }
}

impl Eq for Expr {}

impl Expr {
    /// An expression with no place.
    pub fn new(kind: ExprKind) -> Self {
        Self {
            kind,
            span: Span::default(),
        }
    }
}

/// The kinds of expression.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ExprKind {
    /// A whole number.
    Num(i64),
    /// Dice: `4d6kh3`, `3d6!`, `8d10>=7f1`.
    Dice(DiceTerm),
    /// `-x`.
    Neg(Box<Expr>),
    /// `a + b`, `a - b`, `a * b`, `a / b`.
    Bin(BinOp, Box<Expr>, Box<Expr>),
    /// `min(a, b, …)` or `max(a, b, …)`.
    Call(Func, Vec<Expr>),
    /// A term with a label: `2d6 [fire]`.
    Label(Box<Expr>, String),
    /// A So1um family mechanic.
    Game(Game),
}

/// Arithmetic operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`: whole-number division rounding toward zero.
    Div,
}

impl BinOp {
    fn symbol(self) -> &'static str {
        match self {
            Self::Add => "+",
            Self::Sub => "-",
            Self::Mul => "*",
            Self::Div => "/",
        }
    }

    fn precedence(self) -> u8 {
        match self {
            Self::Add | Self::Sub => 1,
            Self::Mul | Self::Div => 2,
        }
    }
}

/// `min` and `max`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Func {
    /// The smallest argument.
    Min,
    /// The largest argument.
    Max,
}

impl Func {
    /// The one definition of `min` and `max` of two values, for rolls and odds alike.
    pub fn apply(self, a: i64, b: i64) -> i64 {
        match self {
            Self::Min => a.min(b),
            Self::Max => a.max(b),
        }
    }
}

/// The kind of die.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Die {
    /// Faces 1 to n (`d6`, `d%` is `d100`).
    Sides(u32),
    /// Fudge/Fate: faces −1, 0, +1 (`dF`).
    Fudge,
}

impl Die {
    /// The faces in the order a die source numbers them (`roll(n)` returns 1..=n).
    pub fn faces(self) -> u32 {
        match self {
            Self::Sides(n) => n,
            Self::Fudge => 3,
        }
    }

    /// The value shown by the `index`-th face (1-based), as a die source returns it.
    pub fn value(self, index: u32) -> i64 {
        match self {
            Self::Sides(_) => i64::from(index),
            Self::Fudge => i64::from(index) - 2,
        }
    }

    /// The lowest and highest values.
    pub fn range(self) -> (i64, i64) {
        (self.value(1), self.value(self.faces()))
    }
}

/// A comparison point: `=5`, `>4`, `>=5`, `<3`, `<=2` (a bare number means `=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Cmp {
    /// The comparison.
    pub op: CmpOp,
    /// Compared with.
    pub value: i64,
}

/// Comparisons.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CmpOp {
    /// `=`
    Eq,
    /// `>` (strictly greater)
    Gt,
    /// `>=`
    Ge,
    /// `<` (strictly less)
    Lt,
    /// `<=`
    Le,
}

impl Cmp {
    /// The comparison as written after `r`, `!` or `f`: a bare number for `=` when it has
    /// no sign.
    fn point(self) -> String {
        if self.op == CmpOp::Eq && self.value >= 0 {
            self.value.to_string()
        } else {
            self.to_string()
        }
    }

    /// Whether `v` meets the comparison.
    pub fn matches(self, v: i64) -> bool {
        match self.op {
            CmpOp::Eq => v == self.value,
            CmpOp::Gt => v > self.value,
            CmpOp::Ge => v >= self.value,
            CmpOp::Lt => v < self.value,
            CmpOp::Le => v <= self.value,
        }
    }
}

impl fmt::Display for Cmp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let op = match self.op {
            CmpOp::Eq => "=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
        };
        write!(f, "{op}{}", self.value)
    }
}

/// Rerolling: `r1` (until the face no longer matches) or `ro1` (once).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Reroll {
    /// Only once (`ro`), or again while it matches (`r`).
    pub once: bool,
    /// Which faces are rolled again.
    pub when: Cmp,
}

/// How a die explodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ExplodeKind {
    /// `!`: each explosion is a new die of the pool (counted on its own by `>=`).
    Explode,
    /// `!!`: the explosions add into the one die.
    Compound,
    /// `!p`: like `!!`, each extra die counting one less.
    Penetrate,
}

/// Exploding: `!`, `!!`, `!p`, with an optional comparison point (`!>5`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Explode {
    /// How the extra dice count.
    pub kind: ExplodeKind,
    /// Which faces explode; `None`: the highest face.
    pub when: Option<Cmp>,
}

/// Keep or drop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum KeepKind {
    /// `kh` (or `k`): keep the highest n.
    KeepHighest,
    /// `kl`: keep the lowest n.
    KeepLowest,
    /// `dh`: drop the highest n.
    DropHighest,
    /// `dl` (or `d`): drop the lowest n.
    DropLowest,
}

/// Keep or drop `n` dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Keep {
    /// Which.
    pub kind: KeepKind,
    /// How many.
    pub n: u32,
}

impl Keep {
    /// Of `count` dice, how many are kept and whether they are the highest ones.
    pub fn kept(self, count: u32) -> (u32, bool) {
        let n = self.n.min(count);
        match self.kind {
            KeepKind::KeepHighest => (n, true),
            KeepKind::KeepLowest => (n, false),
            KeepKind::DropHighest => (count - n, false),
            KeepKind::DropLowest => (count - n, true),
        }
    }
}

/// `NdM` with its modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct DiceTerm {
    /// How many dice.
    pub count: u32,
    /// Which die.
    pub die: Die,
    /// Rerolls, applied to a die's first face before anything else.
    pub reroll: Option<Reroll>,
    /// Explosions, after the rerolls.
    pub explode: Option<Explode>,
    /// Keep or drop, on the dice's values.
    pub keep: Option<Keep>,
    /// Count successes instead of summing: each matching die counts 1.
    pub success: Option<Cmp>,
    /// With successes: each matching die takes 1 away.
    pub failure: Option<Cmp>,
}

impl DiceTerm {
    /// Plain `NdM`.
    pub fn plain(count: u32, die: Die) -> Self {
        Self {
            count,
            die,
            reroll: None,
            explode: None,
            keep: None,
            success: None,
            failure: None,
        }
    }
}

/// A Sol Edge that changes the dice of a test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SolEdge {
    /// Push the Limit: 3 to 6 are hits.
    Push,
    /// Second Chance: dice that are not hits are rolled again.
    Second,
}

/// The So1um family's mechanics, as the rules crates define them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "game")]
pub enum Game {
    /// So1um Expanded: `solum(3)` is the result (highest die, 6 plus the Rule-of-6 chain);
    /// `solum(3, vs 7)` is 1 on a pass and 0 on a failure; `gear` rerolls one die once.
    Solum {
        /// Pool.
        dice: u32,
        /// Difficulty.
        vs: Option<u32>,
        /// Gear reroll.
        gear: bool,
    },
    /// Solum die types: `dt(d8)`, one exploding die (a maximum becomes two new dice).
    DieType {
        /// Sides: 4, 6, 8, 10 or 12.
        sides: u32,
    },
    /// Project Sol: `sol(8)`, the hits of 8 dice (`sol(8, push)`, `sol(8, second)`).
    Sol {
        /// Pool.
        dice: u32,
        /// Edge on the test.
        edge: Option<SolEdge>,
    },
    /// Sol'una: `una(5, +2)`, the largest group of 5 dice after net flips.
    Una {
        /// Pool.
        dice: u32,
        /// Net flips: positive the tester's, negative against.
        flips: i32,
    },
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Solum { dice, vs, gear } => {
                write!(f, "solum({dice}")?;
                if let Some(vs) = vs {
                    write!(f, ", vs {vs}")?;
                }
                if gear {
                    write!(f, ", gear")?;
                }
                write!(f, ")")
            }
            Self::DieType { sides } => write!(f, "dt(d{sides})"),
            Self::Sol { dice, edge } => match edge {
                None => write!(f, "sol({dice})"),
                Some(SolEdge::Push) => write!(f, "sol({dice}, push)"),
                Some(SolEdge::Second) => write!(f, "sol({dice}, second)"),
            },
            Self::Una { dice, flips } => {
                if flips == 0 {
                    write!(f, "una({dice})")
                } else {
                    write!(f, "una({dice}, {flips:+})")
                }
            }
        }
    }
}

impl fmt::Display for DiceTerm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count != 1 {
            write!(f, "{}", self.count)?;
        }
        match self.die {
            Die::Sides(n) => write!(f, "d{n}")?,
            Die::Fudge => write!(f, "dF")?,
        }
        if let Some(r) = self.reroll {
            write!(f, "{}{}", if r.once { "ro" } else { "r" }, r.when.point())?;
        }
        if let Some(e) = self.explode {
            let mark = match e.kind {
                ExplodeKind::Explode => "!",
                ExplodeKind::Compound => "!!",
                ExplodeKind::Penetrate => "!p",
            };
            write!(f, "{mark}")?;
            match e.when {
                Some(c) => write!(f, "{}", c.point())?,
                // A success count right after `!` would read as its point: name the face.
                None if self.success.is_some() => write!(f, "{}", self.die.range().1)?,
                None => {}
            }
        }
        if let Some(k) = self.keep {
            let mark = match k.kind {
                KeepKind::KeepHighest => "kh",
                KeepKind::KeepLowest => "kl",
                KeepKind::DropHighest => "dh",
                KeepKind::DropLowest => "dl",
            };
            write!(f, "{mark}{}", k.n)?;
        }
        if let Some(s) = self.success {
            write!(f, "{s}")?;
        }
        if let Some(c) = self.failure {
            write!(f, "f{}", c.point())?;
        }
        Ok(())
    }
}

impl Expr {
    /// Precedence of the top of this expression: 1 sums, 2 products, 3 a unary minus,
    /// 4 a labelled term, 5 atoms. The printer adds parentheses where a lower one sits
    /// under a higher one.
    fn precedence(&self) -> u8 {
        match &self.kind {
            ExprKind::Bin(op, ..) => op.precedence(),
            ExprKind::Neg(_) => 3,
            ExprKind::Label(..) => 4,
            _ => 5,
        }
    }

    fn write_at(&self, f: &mut fmt::Formatter<'_>, min: u8) -> fmt::Result {
        let paren = self.precedence() < min;
        if paren {
            write!(f, "(")?;
        }
        match &self.kind {
            ExprKind::Num(n) => {
                if *n < 0 {
                    // A negative constant (never parsed as one) is printed as a negation.
                    write!(f, "-{}", n.unsigned_abs())?;
                } else {
                    write!(f, "{n}")?;
                }
            }
            ExprKind::Dice(d) => write!(f, "{d}")?,
            ExprKind::Neg(e) => {
                write!(f, "-")?;
                e.write_at(f, 3)?;
            }
            ExprKind::Bin(op, a, b) => {
                let p = op.precedence();
                a.write_at(f, p)?;
                write!(f, " {} ", op.symbol())?;
                // Left-associative: the right side needs parentheses at the same level.
                b.write_at(f, p + 1)?;
            }
            ExprKind::Call(func, args) => {
                write!(
                    f,
                    "{}(",
                    match func {
                        Func::Min => "min",
                        Func::Max => "max",
                    }
                )?;
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    a.write_at(f, 0)?;
                }
                write!(f, ")")?;
            }
            ExprKind::Label(e, text) => {
                // A label follows one atom: anything larger is parenthesised.
                e.write_at(f, 5)?;
                write!(f, " [{text}]")?;
            }
            ExprKind::Game(g) => write!(f, "{g}")?,
        }
        if paren {
            write!(f, ")")?;
        }
        Ok(())
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_at(f, 0)
    }
}
