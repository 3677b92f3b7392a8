//! The API's OpenAPI description, generated when it is first asked for from the handlers'
//! own annotations (`#[utoipa::path]` beside each handler: path, method, parameters, request
//! type, answer type and the statuses particular to it) and the request types' `ToSchema`
//! derives (the limits the server enforces as schema keywords). What every route shares
//! because of the layers it runs under (sessions, the origin guard, body reading, the rate
//! limit, the store) is added here once, by [`complete`], from the same facts those layers
//! act on: whether a route needs a session, whether it changes anything.
//!
//! Text fields name the server's text rules by a placeholder pattern (`@name`, `@line`,
//! `@prose`), replaced here by a regular expression computed from the application's own
//! rule ([`solum_app::name_problem`], [`solum_app::text_problem`]) over every character.

use std::sync::LazyLock;

use serde_json::{Map, Value, json};
use utoipa::OpenApi;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};

use crate::{BODY_LIMIT, NOTE_BODY_LIMIT};

/// Describes a request read with [`crate::split`] as its inner part's object with the
/// envelope's fields beside it: `enveloped!(Request, Inner, "Name", secret, typed)`.
macro_rules! enveloped {
    ($t:ty, $inner:ty, $name:literal, $secret:expr, $typed:expr) => {
        impl utoipa::__dev::ComposeSchema for $t {
            fn compose(
                _: Vec<utoipa::openapi::RefOr<utoipa::openapi::Schema>>,
            ) -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
                $crate::openapi::with_envelope::<$inner>($secret, $typed)
            }
        }

        impl utoipa::ToSchema for $t {
            fn name() -> std::borrow::Cow<'static, str> {
                $name.into()
            }

            // The inner part's fields refer to its types by name (a `bounded!` number).
            fn schemas(
                schemas: &mut Vec<(
                    String,
                    utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
                )>,
            ) {
                <$inner as utoipa::ToSchema>::schemas(schemas);
            }
        }
    };
}
pub(crate) use enveloped;

/// `T`'s object with the request's own fields beside it (`secret`, and `typed` where
/// `typed`), as [`crate::split`] reads them: unknown fields refused in both parts.
pub(crate) fn with_envelope<T: utoipa::PartialSchema>(secret: bool, typed: bool) -> RefOr<Schema> {
    let mut schema = T::schema();
    if let RefOr::T(Schema::Object(o)) = &mut schema {
        if secret {
            o.properties.insert(
                "secret".into(),
                ObjectBuilder::new()
                    .schema_type(Type::Boolean)
                    .description(Some("Game master only: the entry is secret"))
                    .into(),
            );
        }
        if typed {
            o.properties.insert("typed".into(), typed_faces().into());
        }
    }
    schema
}

/// Faces rolled by hand, in the order the rule draws them (a game master alone at the
/// table): at most 2,000, each a face of the die (at least 1).
pub(crate) fn typed_faces() -> Schema {
    utoipa::openapi::schema::ArrayBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([Type::Array, Type::Null]))
        .items(
            ObjectBuilder::new()
                .schema_type(Type::Integer)
                .minimum(Some(1))
                .maximum(Some(u32::MAX)),
        )
        .max_items(Some(2000))
        .description(Some(
            "Faces rolled by hand, in the order the rule draws them; only for a game master alone at the table",
        ))
        .into()
}

/// The genres of idea words ([`solum_app::ideas::genres`]) as the server reads a name:
/// in any ASCII case, with spaces, tabs or line breaks around it, or an alias of science
/// fiction (`sf`). An `enum` would be stricter than the server.
pub(crate) fn genre() -> Schema {
    let any_case = |name: &str| -> String {
        name.chars()
            .map(|c| match c {
                c if c.is_ascii_alphabetic() => {
                    format!("[{}{}]", c.to_ascii_lowercase(), c.to_ascii_uppercase())
                }
                c => c.to_string(),
            })
            .collect()
    };
    let names: Vec<String> = solum_app::ideas::genres()
        .into_iter()
        .chain(solum_app::ideas::SCIENCE_FICTION_ALIASES)
        .map(any_case)
        .collect();
    ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some(format!(
            "^[ \\t\\n\\r]*(?:{})[ \\t\\n\\r]*$",
            names.join("|")
        )))
        .into()
}

/// The description as served at `GET /api/openapi.json`, made once.
pub(crate) fn json() -> &'static str {
    static JSON: LazyLock<String> = LazyLock::new(|| {
        serde_json::to_string_pretty(&description()).unwrap_or_else(|e| {
            tracing::error!("the OpenAPI description cannot be written: {e}");
            "{}".to_string()
        })
    });
    &JSON
}

/// The whole description: the handlers' annotations, completed with what every route
/// shares ([`complete`]).
pub fn description() -> Value {
    let doc = crate::routes::ApiDoc::openapi();
    let mut doc = serde_json::to_value(doc).unwrap_or_default();
    complete(&mut doc);
    doc
}

/// The answers every route may give because of the layers it runs under, each with the
/// `{"error", "code", "field"}` body ([`crate::error::ErrorBody`]).
fn shared_responses() -> Value {
    let error = |description: &str| {
        json!({
            "description": description,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
        })
    };
    json!({
        "NotJson": error("The body is not JSON (`body-syntax`), or is cut off (`body-unreadable`); nothing changed. Malformed HTTP (two `Content-Length` headers, …) is refused 400 by the HTTP layer, with no body"),
        "Unauthorized": error("No session, or one unknown, logged out or expired (`session-needed`, `session-unknown`)"),
        "Forbidden": error("A change not sent from the table's own page (`cross-origin`), or not allowed to this member (`gm-only`, `forbidden`, …); nothing changed"),
        "SlowBody": error("The body did not arrive within 10 s of the headers (`body-timeout`); nothing changed"),
        "TooLarge": error(&format!("The body is over the route's limit ({BODY_LIMIT} bytes, a note {NOTE_BODY_LIMIT}) (`body-too-large`); nothing changed")),
        "NotJsonType": error("The body was not sent as `Content-Type: application/json` (`body-content-type`); nothing changed"),
        "UnknownHost": error("The `Host` header is not one the server was told to answer (`unknown-host`)"),
        "BadInput": error("The request is wrong for the rules or the table's state: `code` says what, `field` names the field or parameter at fault; nothing changed"),
        "TooMany": error("The session's request rate (Retry-After: 1), or, for a change that writes the journal, the session's or the table's write budget (Retry-After: the seconds until it allows one more) (`rate-limited`); nothing changed"),
        "Internal": error("The server failed (`internal`); what was asked may not have been done"),
        "Busy": error("The campaign or the server is busy (`campaign-busy`, `server-busy`); nothing was done, try again"),
    })
}

/// Adds what every route shares to each operation: the security scheme, the statuses of
/// the layers (a session's 401 and 429, the origin guard's 403 for changes, the body
/// reader's 400, 408, 413, 415 and 422, the host guard's 421, the store's 500 and 503), and
/// the text rules' patterns.
fn complete(doc: &mut Value) {
    let Some(root) = doc.as_object_mut() else {
        return;
    };
    root.insert("openapi".into(), json!("3.1.0"));
    let components = root
        .entry("components")
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .map(std::mem::take)
        .unwrap_or_default();
    let mut components = components;
    components.insert(
        "securitySchemes".into(),
        json!({"session": {
            "type": "http",
            "scheme": "bearer",
            "description": "The session token a join, a new table or a re-entry link answers with"
        }}),
    );
    components.insert("responses".into(), shared_responses());
    root.insert("components".into(), Value::Object(components));
    root.insert("security".into(), json!([{"session": []}]));
    if let Some(paths) = root.get_mut("paths").and_then(Value::as_object_mut) {
        for (path, item) in paths.iter_mut() {
            let Some(item) = item.as_object_mut() else {
                continue;
            };
            for (method, op) in item.iter_mut() {
                if let Some(op) = op.as_object_mut() {
                    complete_operation(path, method, op);
                }
            }
        }
    }
    let patterns = [
        ("@name", name_pattern()),
        ("@line", text_pattern(false)),
        ("@prose", text_pattern(true)),
    ];
    fill_patterns(doc, &patterns);
    open_merged(doc);
}

/// A closed schema (a rules type serde reads with `deny_unknown_fields`, which derives
/// `additionalProperties: false`) merged into a larger object by `allOf` (a view that
/// flattens it beside fields of its own: a creature with its `source`) would forbid those
/// fields: there it stands inline and open, its properties unchanged.
fn open_merged(doc: &mut Value) {
    let closed: Map<String, Value> = doc["components"]["schemas"]
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(_, s)| s["additionalProperties"] == json!(false))
        .map(|(name, s)| {
            let mut open = s.clone();
            if let Some(o) = open.as_object_mut() {
                o.remove("additionalProperties");
            }
            (format!("#/components/schemas/{name}"), open)
        })
        .collect();
    fn walk(v: &mut Value, closed: &Map<String, Value>) {
        match v {
            Value::Object(o) => {
                if let Some(Value::Array(parts)) = o.get_mut("allOf") {
                    for part in parts.iter_mut() {
                        if let Some(open) = part["$ref"].as_str().and_then(|r| closed.get(r)) {
                            *part = open.clone();
                        }
                    }
                }
                o.values_mut().for_each(|x| walk(x, closed));
            }
            Value::Array(a) => a.iter_mut().for_each(|x| walk(x, closed)),
            _ => {}
        }
    }
    walk(doc, &closed);
}

/// One operation's shared statuses and security (see [`complete`]).
fn complete_operation(path: &str, method: &str, op: &mut Map<String, Value>) {
    let api = path.starts_with("/api/") && path != "/api/openapi.json";
    // `security(())` on a handler: the route needs no session.
    let public = op
        .get("security")
        .and_then(Value::as_array)
        .is_some_and(|s| s.iter().all(|r| r.as_object().is_some_and(Map::is_empty)));
    if public {
        op.insert("security".into(), json!([]));
    }
    let changes = method != "get";
    let mut shared: Vec<(&str, &str)> = Vec::new();
    if api {
        shared.extend([("421", "UnknownHost"), ("500", "Internal"), ("503", "Busy")]);
        // The tables' anonymous routes are rate-limited per address, the others per session.
        shared.push(("429", "TooMany"));
        if !public {
            shared.push(("401", "Unauthorized"));
        }
        // A query string or a path segment that does not read, or a refusal of the rules.
        shared.push(("422", "BadInput"));
    }
    if changes {
        shared.extend([
            ("403", "Forbidden"),
            ("400", "NotJson"),
            ("408", "SlowBody"),
            ("413", "TooLarge"),
            ("415", "NotJsonType"),
        ]);
    }
    let path_params = op
        .get("parameters")
        .and_then(Value::as_array)
        .is_some_and(|ps| ps.iter().any(|p| p["in"] == "path"));
    if api && path_params {
        shared.push(("400", "NotJson"));
    }
    let responses = op
        .entry("responses")
        .or_insert_with(|| json!({}))
        .as_object_mut();
    if let Some(responses) = responses {
        for (status, name) in shared {
            responses
                .entry(status.to_string())
                .or_insert_with(|| json!({"$ref": format!("#/components/responses/{name}")}));
        }
    }
}

/// A doc comment's rustdoc links as plain text: `` [`Campaign::check`] `` reads
/// `` `Campaign::check` `` in a summary (the brackets link nothing outside rustdoc).
fn without_doc_links(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("[`") {
        let Some(len) = rest[at..].find("`]") else {
            break;
        };
        out.push_str(&rest[..at]);
        out.push_str(&rest[at + 1..at + len + 1]);
        rest = &rest[at + len + 2..];
        // `[`x`](url)` and `[`x`][y]`: the target goes too.
        for (open, close) in [('(', ')'), ('[', ']')] {
            if rest.starts_with(open)
                && let Some(end) = rest.find(close)
            {
                rest = &rest[end + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Replaces the placeholder patterns of text fields by their regular expressions, and
/// plain-texts the doc comments' links ([`without_doc_links`]).
fn fill_patterns(v: &mut Value, patterns: &[(&str, String)]) {
    match v {
        Value::Object(m) => {
            integer_bounds(m);
            // Doc comments become summaries and descriptions: their rustdoc links go.
            for key in ["summary", "description"] {
                if let Some(Value::String(text)) = m.get_mut(key) {
                    *text = without_doc_links(text);
                }
            }
            if let Some(Value::String(p)) = m.get_mut("pattern")
                && let Some((_, re)) = patterns.iter().find(|(k, _)| k == p)
            {
                *p = re.clone();
            }
            for (_, child) in m.iter_mut() {
                fill_patterns(child, patterns);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|c| fill_patterns(c, patterns)),
        _ => {}
    }
}

/// The bounds serde enforces on an integer field: a `u32` (utoipa's `int32` from 0) up to
/// 4,294,967,295, an `i64` (`int64` without a minimum) within its range, a `u64` (`int64`
/// from 0) up to 18,446,744,073,709,551,615.
fn integer_bounds(m: &mut Map<String, Value>) {
    let integer = match m.get("type") {
        Some(Value::String(t)) => t == "integer",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "integer"),
        _ => false,
    };
    if !integer || m.contains_key("maximum") {
        return;
    }
    match (m.get("format").and_then(Value::as_str), m.get("minimum")) {
        (Some("int32"), Some(min)) if min == 0 => {
            // OpenAPI's `int32` is signed: a `u32` past 2,147,483,647 is an `int64`.
            m.insert("maximum".into(), json!(u32::MAX));
            m.insert("format".into(), json!("int64"));
        }
        (Some("int64"), None) => {
            m.insert("minimum".into(), json!(i64::MIN));
            m.insert("maximum".into(), json!(i64::MAX));
        }
        (Some("int64"), Some(min)) if min == 0 => {
            // A `u64` (a seed): the whole unsigned range, which `int64` is not.
            m.insert("maximum".into(), json!(u64::MAX));
            m.insert("format".into(), json!("uint64"));
        }
        _ => {}
    }
}

/// A name as every system's use cases take it ([`solum_app::name_problem`]): characters
/// a name may hold, at least one of them visible (neither a space nor a combining mark).
pub(crate) fn name_pattern() -> String {
    let allowed = |c: char| solum_app::name_problem(&format!("a{c}a")).is_none();
    let visible = |c: char| allowed(c) && solum_app::name_problem(&c.to_string()).is_none();
    around(&class_of(allowed), &class_of(visible))
}

/// A text field as the use cases take it ([`solum_app::text_problem`]): no control
/// character (line breaks and tabs where `multiline`), no direction override, and something
/// other than white space.
pub(crate) fn text_pattern(multiline: bool) -> String {
    let allowed = |c: char| {
        // Carriage returns are line breaks by the time the rule sees them.
        let c = if multiline && c == '\r' { '\n' } else { c };
        solum_app::text_problem(&c.to_string(), multiline).is_none()
    };
    let visible = |c: char| allowed(c) && !c.is_whitespace();
    around(&class_of(allowed), &class_of(visible))
}

/// `^[allowed]*[visible][allowed]*$`.
fn around(allowed: &str, visible: &str) -> String {
    format!("^{allowed}*{visible}{allowed}*$")
}

/// A negated character class of every character (of all Unicode) `ok` refuses, as ranges.
fn class_of(ok: impl Fn(char) -> bool) -> String {
    let mut out = String::from("[^");
    let mut start: Option<char> = None;
    let mut last = '\0';
    let flush = |out: &mut String, a: char, b: char| {
        push_escaped(out, a);
        if b != a {
            out.push('-');
            push_escaped(out, b);
        }
    };
    for c in (0..=0x10_FFFF_u32).filter_map(char::from_u32) {
        if ok(c) {
            if let Some(a) = start.take() {
                flush(&mut out, a, last);
            }
        } else {
            start.get_or_insert(c);
            last = c;
        }
    }
    if let Some(a) = start {
        flush(&mut out, a, last);
    }
    out.push(']');
    out
}

/// A character inside a class: `\uXXXX` in the Basic Multilingual Plane (both ECMA-262 and
/// Python read it), the character itself beyond.
fn push_escaped(out: &mut String, c: char) {
    if u32::from(c) <= 0xFFFF {
        out.push_str(&format!("\\u{:04X}", u32::from(c)));
    } else {
        out.push(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches_class(class: &str, c: char) -> bool {
        // The class is `[^…]` of `\uXXXX` escapes and ranges: read it back.
        let inner = &class[2..class.len() - 1];
        let mut chars = Vec::new();
        let mut it = inner.chars().peekable();
        while let Some(ch) = it.next() {
            let v = if ch == '\\' {
                let _u = it.next();
                let hex: String = (0..4).filter_map(|_| it.next()).collect();
                u32::from_str_radix(&hex, 16).unwrap()
            } else {
                u32::from(ch)
            };
            chars.push(v);
            if it.peek() == Some(&'-') {
                it.next();
                chars.push(u32::MAX); // a range follows
            }
        }
        let mut refused = false;
        let mut i = 0;
        while i < chars.len() {
            if i + 2 < chars.len() && chars[i + 1] == u32::MAX {
                refused |= (chars[i]..=chars[i + 2]).contains(&u32::from(c));
                i += 3;
            } else {
                refused |= chars[i] == u32::from(c);
                i += 1;
            }
        }
        !refused
    }

    #[test]
    fn the_name_class_refuses_what_the_name_rule_refuses() {
        let p = name_pattern();
        let allowed = p[1..].split("]*").next().unwrap().to_string() + "]";
        // From the rule's own examples: invisible, blank-looking and control characters.
        for c in [
            '\u{feff}', '\u{200b}', '\u{202e}', '\u{3164}', '\u{a0}', '\n', '\u{7}',
        ] {
            assert!(!matches_class(&allowed, c), "{c:?} passes the class");
        }
        for c in ['a', 'É', ' ', '7', '漢'] {
            assert!(matches_class(&allowed, c), "{c:?} refused by the class");
        }
    }

    #[test]
    fn summaries_lose_rustdoc_links() {
        assert_eq!(
            without_doc_links("Rolls [`Campaign::check`] ([`SimLimits::WEB`][x]) and [`a`](b)."),
            "Rolls `Campaign::check` (`SimLimits::WEB`) and `a`."
        );
        assert_eq!(without_doc_links("no [link] here"), "no [link] here");
        let doc = description().to_string();
        assert!(!doc.contains("[`"), "a rustdoc link in the description");
    }

    #[test]
    fn a_classic_rest_is_described_as_the_server_bounds_it() {
        let doc = description();
        let hours = &doc["components"]["schemas"]["ClassicRest"]["properties"]["hours"];
        assert_eq!(
            hours["minimum"],
            json!(solum_app::classic::MIN_REST_HOURS),
            "{hours}"
        );
        assert_eq!(hours["maximum"], json!(876_000), "{hours}");
    }

    #[test]
    fn prose_allows_line_breaks_and_a_line_does_not() {
        let line = text_pattern(false);
        let prose = text_pattern(true);
        let class = |p: &str| p[1..].split("]*").next().unwrap().to_string() + "]";
        assert!(!matches_class(&class(&line), '\n'));
        assert!(matches_class(&class(&prose), '\n'));
        assert!(matches_class(&class(&prose), '\r'));
        assert!(!matches_class(&class(&prose), '\u{202a}'));
        assert!(!matches_class(&class(&prose), '\u{0}'));
    }
}
