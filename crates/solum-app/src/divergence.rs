//! Why a journal entry does not re-derive, as data. `journal verify` lists one per entry and
//! an import refuses with one (a stored fight of the original that does not replay is
//! refused with its sentence); a front end (or a test) reads which field differs and both
//! values instead of parsing a sentence. The sentence is still there: [`Divergence`]'s
//! `Display`, what `journal verify` prints.

use std::fmt;

use serde::Serialize;
use serde_json::Value;

use crate::rolled::Rolled;

/// Why an entry does not re-derive.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Divergence {
    /// Written by a newer solum: this one does not know the record's form.
    NewerSchema {
        /// The record kind (`character`, `Project Sol`, …).
        record: String,
        /// Its schema.
        schema: i64,
    },
    /// Made under rules newer than this solum knows (a Project Sol record's `rules`).
    NewerRules {
        /// The record kind.
        record: String,
        /// The rules' version it names.
        rules: i64,
    },
    /// The stored body is not a record this solum reads.
    Unreadable {
        /// Why, in words.
        problem: String,
    },
    /// The dice cannot be rolled again: a generated roll without its seed, typed faces too
    /// few or too many, a rule that fails on them.
    Unreplayable {
        /// Why, in words.
        problem: String,
    },
    /// The faces drawn again are not the faces recorded.
    Faces {
        /// The faces the entry keeps.
        recorded: Vec<u32>,
        /// The faces its seed or typed dice give.
        derived: Vec<u32>,
        /// True when the dice were typed in (false: a seed).
        typed: bool,
    },
    /// Recorded values differ from what the inputs and the dice give, field by field.
    Fields {
        /// Each field that differs, in path order.
        differences: Vec<FieldDifference>,
    },
    /// The rules refuse what the entry records (an edit that does not apply, a sheet out of
    /// the rules' ranges).
    Refused {
        /// The rules' words.
        problem: String,
    },
    /// The entry contradicts itself or the entries before it (a line of a combat never
    /// started, a renamed character).
    Inconsistent {
        /// What, in words.
        problem: String,
    },
    /// One part of the entry diverges (a combat's line, a character's sheet).
    Within {
        /// The part, as a sentence names it (`the line \`melee Nick\``).
        part: String,
        /// How it diverges.
        #[cfg_attr(feature = "openapi", schema(no_recursion))]
        divergence: Box<Divergence>,
    },
}

/// One field whose recorded value differs from the derived one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FieldDifference {
    /// Where, as `outcome.event_die` or `events[2].amount`.
    pub path: String,
    /// The value the entry keeps (`null` when it lacks the field, or leaves it out as its
    /// default).
    pub recorded: Value,
    /// The value the inputs and dice give (`null` when they give no such field, or it is
    /// its default and left out).
    pub derived: Value,
}

impl Divergence {
    /// A record of `kind` whose `schema` is newer than `known`, or `None`.
    pub(crate) fn newer(kind: &str, schema: i64, known: i64) -> Option<Self> {
        (schema > known).then(|| Self::NewerSchema {
            record: kind.to_owned(),
            schema,
        })
    }

    /// The dice cannot be rolled again, for `problem`.
    pub(crate) fn unreplayable(problem: impl fmt::Display) -> Self {
        Self::Unreplayable {
            problem: problem.to_string(),
        }
    }

    /// The rules refuse what the entry records.
    pub(crate) fn refused(problem: impl fmt::Display) -> Self {
        Self::Refused {
            problem: problem.to_string(),
        }
    }

    /// The entry contradicts itself or what came before.
    pub(crate) fn inconsistent(problem: impl fmt::Display) -> Self {
        Self::Inconsistent {
            problem: problem.to_string(),
        }
    }

    /// `rolled`'s faces against the faces drawn again, or `None` when they are the same.
    pub(crate) fn faces(rolled: &Rolled, derived: &[u32]) -> Option<Self> {
        (rolled.faces != derived).then(|| Self::Faces {
            recorded: rolled.faces.clone(),
            derived: derived.to_vec(),
            typed: rolled.typed,
        })
    }

    /// The fields under `path` where `recorded` and `derived` differ, or `None` when they are
    /// equal. Values that differ though they serialize alike (which no record's type allows
    /// today) are said to differ, in words.
    pub(crate) fn fields<T: Serialize + PartialEq>(
        path: &str,
        recorded: &T,
        derived: &T,
    ) -> Option<Self> {
        if recorded == derived {
            return None;
        }
        let mut differences = Vec::new();
        differences_of(
            path,
            &serde_json::to_value(recorded).unwrap_or_default(),
            &serde_json::to_value(derived).unwrap_or_default(),
            &mut differences,
        );
        Some(if differences.is_empty() {
            Self::inconsistent(format!(
                "{}: differs from what the dice give",
                if path.is_empty() { "the record" } else { path }
            ))
        } else {
            Self::Fields { differences }
        })
    }

    /// This divergence, as one of `part`'s.
    pub(crate) fn within(self, part: impl fmt::Display) -> Self {
        Self::Within {
            part: part.to_string(),
            divergence: Box::new(self),
        }
    }

    /// The field differences it holds, however deep (empty for the other kinds).
    pub fn differences(&self) -> &[FieldDifference] {
        match self {
            Self::Fields { differences } => differences,
            Self::Within { divergence, .. } => divergence.differences(),
            _ => &[],
        }
    }
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NewerSchema { record, schema } => write!(
                f,
                "{record} record schema {schema} is newer than this solum knows"
            ),
            Self::NewerRules { record, rules } => write!(
                f,
                "{record} record rules {rules} are newer than this solum knows"
            ),
            Self::Unreadable { problem } => write!(f, "it cannot be read: {problem}"),
            Self::Unreplayable { problem } => write!(f, "its dice cannot be replayed: {problem}"),
            Self::Faces {
                recorded,
                derived,
                typed,
            } => write!(
                f,
                "recorded faces {recorded:?}, the {} gives {derived:?}",
                if *typed { "typed dice" } else { "seed" }
            ),
            Self::Fields { differences } => {
                for (i, d) in differences.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(
                        f,
                        "{}: recorded {}, the dice give {}",
                        d.path, d.recorded, d.derived
                    )?;
                }
                Ok(())
            }
            Self::Refused { problem } | Self::Inconsistent { problem } => f.write_str(problem),
            Self::Within { part, divergence } => write!(f, "{part}: {divergence}"),
        }
    }
}

/// Lists the paths where two JSON values differ: objects field by field, lists of the same
/// length item by item (`events[2].amount`), anything else whole.
pub(crate) fn differences_of(
    path: &str,
    recorded: &Value,
    derived: &Value,
    out: &mut Vec<FieldDifference>,
) {
    if recorded == derived {
        return;
    }
    if let (Value::Object(a), Value::Object(b)) = (recorded, derived) {
        let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
        keys.sort();
        keys.dedup();
        for key in keys {
            let sub = if path.is_empty() {
                key.clone()
            } else {
                format!("{path}.{key}")
            };
            let none = Value::Null;
            differences_of(
                &sub,
                a.get(key).unwrap_or(&none),
                b.get(key).unwrap_or(&none),
                out,
            );
        }
        return;
    }
    if let (Value::Array(a), Value::Array(b)) = (recorded, derived)
        && a.len() == b.len()
    {
        for (i, (x, y)) in a.iter().zip(b).enumerate() {
            differences_of(&format!("{path}[{i}]"), x, y, out);
        }
        return;
    }
    out.push(FieldDifference {
        path: path.to_owned(),
        recorded: recorded.clone(),
        derived: derived.clone(),
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fields_name_each_differing_path_with_both_values() {
        let recorded =
            json!({"answer": "yes", "event": {"die": 6, "focus": "npc"}, "dice": [1, 2]});
        let derived =
            json!({"answer": "yes-but", "event": {"die": 2, "focus": "npc"}, "dice": [1, 3]});
        let d = Divergence::fields("outcome", &recorded, &derived).unwrap();
        let paths: Vec<(&str, &Value, &Value)> = d
            .differences()
            .iter()
            .map(|f| (f.path.as_str(), &f.recorded, &f.derived))
            .collect();
        assert_eq!(
            paths,
            [
                ("outcome.answer", &json!("yes"), &json!("yes-but")),
                ("outcome.dice[1]", &json!(2), &json!(3)),
                ("outcome.event.die", &json!(6), &json!(2)),
            ]
        );
        assert_eq!(
            d.to_string(),
            r#"outcome.answer: recorded "yes", the dice give "yes-but"; outcome.dice[1]: recorded 2, the dice give 3; outcome.event.die: recorded 6, the dice give 2"#
        );
        assert_eq!(Divergence::fields("outcome", &recorded, &recorded), None);
    }

    #[test]
    fn a_part_names_itself_before_its_divergence_and_serializes_as_a_tagged_value() {
        let rolled = Rolled {
            seed: Some(7),
            typed: false,
            faces: vec![4, 2],
        };
        let d = Divergence::faces(&rolled, &[4, 5])
            .unwrap()
            .within("the line `melee Nick`");
        assert_eq!(
            d.to_string(),
            "the line `melee Nick`: recorded faces [4, 2], the seed gives [4, 5]"
        );
        assert_eq!(
            serde_json::to_value(&d).unwrap(),
            json!({"kind": "within", "part": "the line `melee Nick`", "divergence":
                {"kind": "faces", "recorded": [4, 2], "derived": [4, 5], "typed": false}})
        );
        assert_eq!(Divergence::faces(&rolled, &[4, 2]), None);
        assert_eq!(
            Divergence::newer("soluna", 3, 2).unwrap().to_string(),
            "soluna record schema 3 is newer than this solum knows"
        );
        assert_eq!(Divergence::newer("soluna", 2, 2), None);
    }
}
