//! JSON out: safe in any HTML context.

use axum::body::Body;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

// JSON out: safe in any HTML context.

/// JSON whose strings escape `<`, `>`, `&` and the two JavaScript line separators as
/// `\uXXXX`: what a player typed can be dropped into HTML, an attribute or a script block
/// and stay text. Every JSON answer and every live event is written this way.
pub fn to_json<T: Serialize>(value: &T) -> Result<Vec<u8>, serde_json::Error> {
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, HtmlSafe);
    value.serialize(&mut ser)?;
    Ok(out)
}

pub(crate) struct HtmlSafe;

impl serde_json::ser::Formatter for HtmlSafe {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        let mut start = 0;
        for (i, c) in fragment.char_indices() {
            let escaped = match c {
                '<' => "\\u003c",
                '>' => "\\u003e",
                '&' => "\\u0026",
                '\u{2028}' => "\\u2028",
                '\u{2029}' => "\\u2029",
                _ => continue,
            };
            writer.write_all(&fragment.as_bytes()[start..i])?;
            writer.write_all(escaped.as_bytes())?;
            start = i + c.len_utf8();
        }
        writer.write_all(&fragment.as_bytes()[start..])
    }
}

/// A JSON answer written by [`to_json`].
pub(crate) struct Json<T>(pub(crate) T);

impl<T: Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        match to_json(&self.0) {
            Ok(bytes) => (
                [(header::CONTENT_TYPE, "application/json")],
                Body::from(bytes),
            )
                .into_response(),
            Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
        }
    }
}

/// A JSON answer already written by [`to_json`] (parts of it kept, as journal entries are).
pub(crate) struct Written(pub(crate) Vec<u8>);

impl IntoResponse for Written {
    fn into_response(self) -> Response {
        (
            [(header::CONTENT_TYPE, "application/json")],
            Body::from(self.0),
        )
            .into_response()
    }
}
