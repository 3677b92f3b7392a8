//! Extractors: the member by session token, JSON bodies and query strings whose
//! rejections answer as [`ApiError`]s, routes that take no body or no query, the peer
//! address, and a request's own fields beside a system's.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Request};
use axum::http::{HeaderMap, StatusCode, header, request::Parts};
use serde::Deserialize;
use solum_app::tables;
use solum_store::{Member, Scope};

use crate::{ApiError, AppState, blocking, read};

/// A JSON body whose rejections answer as [`ApiError`]s: 415 `body-content-type` without
/// a JSON content type, 400 `body-syntax` for what is not JSON, 422 `body-invalid` naming
/// the field at fault, 413 `body-too-large`.
pub(crate) struct Body_<T>(pub(crate) T);

impl<T, S> FromRequest<S> for Body_<T>
where
    T: serde::de::DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        if !json_content_type(req.headers()) {
            return Err(ApiError::coded(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "body-content-type",
                "the request body must be JSON, sent with `Content-Type: application/json`",
            ));
        }
        let bytes = axum::body::Bytes::from_request(req, state)
            .await
            .map_err(body_unread)?;
        read_json(&bytes).map(Self)
    }
}

/// `application/json` or `application/…+json`, as axum's own JSON extractor takes.
fn json_content_type(headers: &HeaderMap) -> bool {
    let Some(value) = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    let mime = value.split(';').next().unwrap_or_default().trim();
    let mime = mime.to_ascii_lowercase();
    mime == "application/json" || (mime.starts_with("application/") && mime.ends_with("+json"))
}

/// A body that could not be read whole: too large, or cut off.
fn body_unread(e: axum::extract::rejection::BytesRejection) -> ApiError {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "the request body is too large",
        )
    } else {
        ApiError::coded(
            StatusCode::BAD_REQUEST,
            "body-unreadable",
            "the request body could not be read",
        )
    }
}

/// Reads a JSON body as `T`, naming the field at fault when it does not fit.
pub(crate) fn read_json<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    // Every request body is an object: serde would also read a struct from an array of its
    // fields in order (`[]` for a request whose fields all have defaults), which no client
    // of this API means.
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if first.is_some_and(|b| *b == b'[') {
        return Err(ApiError::coded(
            StatusCode::UNPROCESSABLE_ENTITY,
            "body-invalid",
            "request body: a JSON object is expected, not an array",
        ));
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        // serde_json calls some mismatches of valid JSON syntax errors (a number where an
        // enum's name goes: `"speed": 5`): a body that reads as JSON is wrong in its data.
        let data = inner.classify() == serde_json::error::Category::Data
            || serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_ok();
        if !data {
            return not_json(&inner);
        }
        let message = plain_words(&inner.to_string());
        // A part [`split`] read, or a key given twice: the field is in the message.
        let (path, message) = match unmarked(&message) {
            Some((field, message)) => (field.to_owned(), message.to_owned()),
            None => (path, message),
        };
        let err = ApiError::coded(
            StatusCode::UNPROCESSABLE_ENTITY,
            "body-invalid",
            at_path(&path, &message),
        );
        if path == "." { err } else { err.field(path) }
    })?;
    de.end().map_err(|e| not_json(&e))?;
    Ok(value)
}

/// `field: what is wrong`, or what is wrong with the body as a whole.
fn at_path(path: &str, e: &dyn std::fmt::Display) -> String {
    if path == "." {
        format!("request body: {e}")
    } else {
        format!("{path}: {e}")
    }
}

/// serde's message in the user's words: what was expected said as JSON says it, never as a
/// Rust type (`expected struct Gear` → `expected an object`, `expected u32` → `expected a
/// whole number from 0 to 4294967295`). serde_json's ` at line 1 column 9` is dropped too:
/// the field is named.
pub(crate) fn plain_words(message: &str) -> String {
    let message = match message.rfind(" at line ") {
        Some(i) if message[i..].contains(" column ") => &message[..i],
        _ => message,
    };
    let Some(at) = message.rfind("expected ") else {
        return message.to_owned();
    };
    let (head, expected) = message.split_at(at + "expected ".len());
    let word = |w: &str| expected == w || expected.starts_with(&format!("{w} "));
    let said = if word("struct") || word("map") {
        "an object".to_owned()
    } else if word("enum") {
        "one of the names this field takes".to_owned()
    } else if word("tuple") || word("a sequence") {
        "a list".to_owned()
    } else if let Some(range) = integer_range(expected) {
        range
    } else if expected == "f32" || expected == "f64" {
        "a number".to_owned()
    } else if expected == "char" {
        "a single character".to_owned()
    } else {
        return message.to_owned();
    };
    format!("{head}{said}")
}

/// `a whole number from MIN to MAX` for a Rust integer type's name.
fn integer_range(name: &str) -> Option<String> {
    let (min, max): (i128, u128) = match name {
        "u8" => (0, u8::MAX.into()),
        "u16" => (0, u16::MAX.into()),
        "u32" => (0, u32::MAX.into()),
        "u64" | "usize" => (0, u64::MAX.into()),
        "i8" => (i8::MIN.into(), i8::MAX as u128),
        "i16" => (i16::MIN.into(), i16::MAX as u128),
        "i32" => (i32::MIN.into(), i32::MAX as u128),
        "i64" | "isize" => (i64::MIN.into(), i64::MAX as u128),
        _ => return None,
    };
    Some(format!("a whole number from {min} to {max}"))
}

/// A path parameter (`/api/journal/{seq}/reveal`) whose rejection answers as an
/// [`ApiError`]: 422 `path-invalid` naming the parameter and what it takes, in the same
/// `{"error", "code", "field"}` form as every other error (never the framework's text).
pub(crate) struct PathParam<T>(pub(crate) T);

impl<T, S> FromRequestParts<S> for PathParam<T>
where
    T: serde::de::DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        // The parameter's name, for a single parameter whose rejection does not say it.
        let only = axum::extract::RawPathParams::from_request_parts(parts, state)
            .await
            .ok()
            .and_then(|raw| {
                let mut keys = raw.iter().map(|(k, _)| k.to_owned());
                match (keys.next(), keys.next()) {
                    (Some(k), None) => Some(k),
                    _ => None,
                }
            });
        axum::extract::Path::<T>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Path(v)| Self(v))
            .map_err(|r| path_rejection(r, only))
    }
}

fn path_rejection(r: axum::extract::rejection::PathRejection, only: Option<String>) -> ApiError {
    use axum::extract::path::ErrorKind as Kind;
    use axum::extract::rejection::PathRejection;
    let PathRejection::FailedToDeserializePathParams(e) = r else {
        tracing::error!("a route's path parameters are missing: {r}");
        return ApiError::internal();
    };
    let shown = |v: &str| v.chars().take(40).collect::<String>();
    let what = |t: &str| integer_range(t).unwrap_or_else(|| "text".to_owned());
    let (key, problem) = match e.into_kind() {
        Kind::ParseErrorAtKey {
            key,
            value,
            expected_type,
        } => (
            Some(key),
            format!("`{}` is not {}", shown(&value), what(expected_type)),
        ),
        Kind::ParseError {
            value,
            expected_type,
        }
        | Kind::ParseErrorAtIndex {
            value,
            expected_type,
            ..
        } => (
            only,
            format!("`{}` is not {}", shown(&value), what(expected_type)),
        ),
        Kind::InvalidUtf8InPathParam { key } => (Some(key), "is not UTF-8 text".to_owned()),
        other => (only, plain_words(&other.to_string())),
    };
    let message = match &key {
        Some(k) => format!("path parameter {k}: {problem}"),
        None => format!("path: {problem}"),
    };
    let err = ApiError::coded(StatusCode::UNPROCESSABLE_ENTITY, "path-invalid", message);
    match key {
        Some(k) => err.field(k),
        None => err,
    }
}

fn not_json(e: &serde_json::Error) -> ApiError {
    ApiError::coded(
        StatusCode::BAD_REQUEST,
        "body-syntax",
        format!("the request body is not JSON: {e}"),
    )
}

/// The body of a POST that takes no fields: none at all, or `{}`. Anything else is refused
/// as any body with an unknown field is (422), so a client learns that what it sent was not
/// used.
pub(crate) struct NoFields;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Nothing {}

impl<S> FromRequest<S> for NoFields
where
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let (parts, body) = req.into_parts();
        let head = parts.clone();
        let bytes = axum::body::Bytes::from_request(Request::from_parts(parts, body), state)
            .await
            .map_err(body_unread)?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(Self);
        }
        Body_::<Nothing>::from_request(
            Request::from_parts(head, axum::body::Body::from(bytes)),
            state,
        )
        .await
        .map(|_| Self)
    }
}

/// The query string of a route that takes none: absent or empty. Anything else is refused
/// (422 naming it), as an unknown parameter of a route that takes some is.
pub(crate) struct NoQuery;

impl<S> FromRequestParts<S> for NoQuery
where
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        match parts.uri.query() {
            None | Some("") => Ok(Self),
            Some(q) => {
                let name = q.split(['=', '&']).next().unwrap_or(q);
                let shown: String = name.chars().take(40).collect();
                Err(ApiError::coded(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "query-invalid",
                    format!("query string: unknown parameter `{shown}` (this route takes none)"),
                )
                .field(shown))
            }
        }
    }
}

/// A query string whose rejections answer as [`ApiError`]s (422 `query-invalid`) naming
/// the parameter.
pub(crate) struct Query_<T>(pub(crate) T);

impl<T, S> FromRequestParts<S> for Query_<T>
where
    T: serde::de::DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        let query = parts.uri.query().unwrap_or_default();
        let de = serde_urlencoded::Deserializer::new(form_urlencoded::parse(query.as_bytes()));
        serde_path_to_error::deserialize(de).map(Self).map_err(|e| {
            let path = e.path().to_string();
            let err = ApiError::coded(
                StatusCode::UNPROCESSABLE_ENTITY,
                "query-invalid",
                format!(
                    "query string: {}",
                    at_query(&path, &query_words(&e.inner().to_string()))
                ),
            );
            if path == "." { err } else { err.field(path) }
        })
    }
}

/// A query parameter's problem in the user's words: the standard library's parse errors
/// (`invalid digit found in string` for `limit=2.0`) said as what the parameter takes.
fn query_words(message: &str) -> String {
    match message {
        "invalid digit found in string" => "expected a whole number".to_owned(),
        "cannot parse integer from empty string" => {
            "expected a whole number, found none".to_owned()
        }
        "number too large to fit in target type" | "number too small to fit in target type" => {
            "a whole number out of range".to_owned()
        }
        "invalid float literal" => "expected a number".to_owned(),
        "provided string was not `true` or `false`" => "expected true or false".to_owned(),
        other => plain_words(other),
    }
}

/// `parameter: what is wrong`, or what is wrong with the query string as a whole.
fn at_query(path: &str, e: &dyn std::fmt::Display) -> String {
    if path == "." {
        e.to_string()
    } else {
        format!("{path}: {e}")
    }
}

// ---------------------------------------------------------------------------------------
// Sessions and rate limits.

/// The member a request acts as, found by its bearer token (or, for the live stream only,
/// its `token` query parameter: an `EventSource` cannot send headers).
pub struct Auth {
    pub(crate) member: Member,
    /// The session token the request came with.
    pub(crate) token: String,
}

impl FromRequestParts<AppState> for Auth {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let token = bearer(&parts.headers).or_else(|| {
            matches!(parts.uri.path(), "/events" | "/api/events")
                .then(|| query_token(parts.uri.query()))
                .flatten()
        });
        let Some(token) = token else {
            return Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "sign in: join a table or create one",
            ));
        };
        // The rate limit is keyed by the session token itself: no header can move a request
        // into another bucket, and a made-up token only spends its own.
        let hash = tables::token_hash(&token);
        if !state.inner.limiter.allow(&hash) {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "too many requests; slow down",
            ));
        }
        // Found recently and not ended since (sessions.rs), or looked up.
        let cache = state.hub().sessions();
        let member = match cache.get(&hash) {
            Ok(member) => Some(member),
            Err(generation) => {
                let db = state.database();
                let asked = token.clone();
                let member = blocking(move || {
                    read(&db, Scope::HOME, |store| tables::session(store, &asked))
                })
                .await?;
                if let Some(m) = &member {
                    state.inner.names.remember(m);
                    cache.keep(hash, m.clone(), generation);
                }
                member
            }
        };
        match member {
            Some(member) => Ok(Self { member, token }),
            None => Err(ApiError::coded(
                StatusCode::UNAUTHORIZED,
                "session-unknown",
                "this session is unknown or expired (unused for 30 days, or logged out): join the table again",
            )),
        }
    }
}

pub(crate) fn bearer(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let token = value.strip_prefix("Bearer ")?.trim();
    Some(token.to_string())
}

pub(crate) fn query_token(query: Option<&str>) -> Option<String> {
    query?
        .split('&')
        .find_map(|kv| kv.strip_prefix("token="))
        .map(str::to_owned)
}

/// The address a request came from, as the connection says (never a header): what keys the
/// rate limit of requests without a session. `None` where the router runs without a
/// listener (tests), where such requests share one bucket.
pub(crate) struct Peer(pub(crate) Option<std::net::IpAddr>);

impl<S: Send + Sync> FromRequestParts<S> for Peer {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        Ok(Self(
            parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map(|c| c.0.ip()),
        ))
    }
}

/// The fields a request carries beside the system's own: whether it is secret, typed dice.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct DiceEnvelope {
    #[serde(default)]
    pub(crate) secret: bool,
    #[serde(default)]
    pub(crate) typed: Option<Vec<u32>>,
}

/// Reads a JSON object as the request's own fields `envelope` (read as `E`) and the rest
/// (read as `T`). Both refuse unknown fields, which `#[serde(flatten)]` cannot: a misspelt
/// `secret` must not pass as a public roll. A key given twice is refused too (at any depth:
/// `{"secret": true, "secret": false}` is no public roll either), and a part that does not
/// read names its field ([`FIELD_MARK`]).
pub(crate) fn split<'de, D, T, E>(d: D, envelope: &[&str]) -> Result<(T, E), D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::de::DeserializeOwned,
    E: serde::de::DeserializeOwned,
{
    use serde::de::Error;
    let serde_json::Value::Object(mut rest) = Strict::deserialize(d)?.0 else {
        return Err(D::Error::invalid_type(
            serde::de::Unexpected::Other("a value other than an object"),
            &"an object",
        ));
    };
    let mut env = serde_json::Map::new();
    for k in envelope {
        if let Some(v) = rest.remove(*k) {
            env.insert((*k).to_string(), v);
        }
    }
    let or = format!(" (or {})", envelope.join(", "));
    let t = serde_path_to_error::deserialize(serde_json::Value::Object(rest))
        .map_err(|e| D::Error::custom(marked(&e, &or)))?;
    let e = serde_path_to_error::deserialize(serde_json::Value::Object(env))
        .map_err(|e| D::Error::custom(marked(&e, "")))?;
    Ok((t, e))
}

/// Starts a message of [`split`]'s whose field is known: `MARK field MARK message`, read
/// back by [`read_json`] as the error's field (a part read from a value, after the body's
/// own reader, has no path of its own). No message of serde's holds this character.
const FIELD_MARK: char = '\u{1F}';

fn marked(e: &serde_path_to_error::Error<serde_json::Error>, or: &str) -> String {
    let message = plain_words(&e.inner().to_string());
    // The envelope's names are the other fields an unknown one may have meant.
    let or = if message.starts_with("unknown field") {
        or
    } else {
        ""
    };
    match e.path().to_string().as_str() {
        "." => format!("{message}{or}"),
        path => format!("{FIELD_MARK}{path}{FIELD_MARK}{message}{or}"),
    }
}

/// `(field, message)` of a [`marked`] message.
fn unmarked(message: &str) -> Option<(&str, &str)> {
    message.strip_prefix(FIELD_MARK)?.split_once(FIELD_MARK)
}

/// Any JSON value, each object's keys once: a key given twice is refused where serde_json's
/// own `Value` would keep the last one silently.
struct Strict(serde_json::Value);

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrictVisitor)
    }
}

struct StrictVisitor;

impl<'de> serde::de::Visitor<'de> for StrictVisitor {
    type Value = Strict;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Strict, E> {
        Ok(Strict(v.into()))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Strict, E> {
        Ok(Strict(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Strict, E> {
        Ok(Strict(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Strict, E> {
        Ok(Strict(v.into()))
    }

    fn visit_str<E>(self, v: &str) -> Result<Strict, E> {
        Ok(Strict(v.into()))
    }

    fn visit_string<E>(self, v: String) -> Result<Strict, E> {
        Ok(Strict(v.into()))
    }

    fn visit_unit<E>(self) -> Result<Strict, E> {
        Ok(Strict(serde_json::Value::Null))
    }

    fn visit_none<E>(self) -> Result<Strict, E> {
        Ok(Strict(serde_json::Value::Null))
    }

    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Strict, D::Error> {
        Strict::deserialize(d)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Strict, A::Error> {
        let mut out = Vec::new();
        while let Some(Strict(v)) = seq.next_element()? {
            out.push(v);
        }
        Ok(Strict(out.into()))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Strict, A::Error> {
        use serde::de::Error;
        let mut out = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                let shown: String = key.chars().take(40).collect();
                return Err(A::Error::custom(format!(
                    "{FIELD_MARK}{shown}{FIELD_MARK}given twice: a field is given once"
                )));
            }
            let Strict(v) = map.next_value()?;
            out.insert(key, v);
        }
        Ok(Strict(out.into()))
    }
}
