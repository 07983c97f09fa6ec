//! The one page, its script and its style sheet, built into the server:
//! plain HTML, CSS and JavaScript in `web/page/`, no build step and
//! nothing loaded from elsewhere.

use axum::http::header;
use axum::response::{IntoResponse, Response};

/// The page.
pub const INDEX_HTML: &str = include_str!("../page/index.html");
/// The board: SVG squares, glyphs, highlights, the evaluation graph.
pub const BOARD_JS: &str = include_str!("../page/board.js");
/// The page's script: play, study, report.
pub const APP_JS: &str = include_str!("../page/app.js");
/// The style sheet.
pub const STYLE_CSS: &str = include_str!("../page/style.css");

/// `text` served as `content_type`.
fn asset(text: &'static str, content_type: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], text).into_response()
}

/// `GET /`.
pub async fn index() -> Response {
    asset(INDEX_HTML, "text/html; charset=utf-8")
}

/// `GET /board.js`.
pub async fn board_js() -> Response {
    asset(BOARD_JS, "text/javascript; charset=utf-8")
}

/// `GET /app.js`.
pub async fn app_js() -> Response {
    asset(APP_JS, "text/javascript; charset=utf-8")
}

/// `GET /style.css`.
pub async fn style_css() -> Response {
    asset(STYLE_CSS, "text/css; charset=utf-8")
}
