//! Only the board's own page may drive the server. Every request must be
//! addressed to the server's own address (its `Host`), which stops a web
//! page from reaching it by DNS rebinding; a request that may change
//! something (any method but `GET`, `HEAD`, `OPTIONS`, `TRACE`) must not
//! come from another site's page (its `Origin`, or without one its
//! `Sec-Fetch-Site`). A request with neither header, as curl and the
//! project's tests send, is a program on this machine, not a page, and
//! is served.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{Request, State};
use axum::http::header::{HOST, ORIGIN};
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// The names a loopback server also answers to.
const LOOPBACK_NAMES: [&str; 3] = ["localhost", "127.0.0.1", "[::1]"];

/// The longest part of a refused header a message repeats.
const SHOWN_CHARS: usize = 80;

/// The `host:port` forms under which a request reaches this server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnAddress {
    /// The address listened on first, then the loopback names; each
    /// also without its port when the port is HTTP's default, 80.
    hosts: Vec<String>,
}

impl OwnAddress {
    /// The forms of `bound`, the address listened on: itself, and on a
    /// loopback address `localhost`, `127.0.0.1` and `[::1]` with its port.
    pub fn new(bound: SocketAddr) -> OwnAddress {
        let mut names = vec![match bound.ip() {
            IpAddr::V4(ip) => ip.to_string(),
            IpAddr::V6(ip) => format!("[{ip}]"),
        }];
        if bound.ip().is_loopback() {
            for name in LOOPBACK_NAMES {
                if !names.iter().any(|known| known == name) {
                    names.push(name.to_string());
                }
            }
        }
        let port = bound.port();
        let mut hosts: Vec<String> = names.iter().map(|name| format!("{name}:{port}")).collect();
        if port == 80 {
            hosts.extend(names);
        }
        OwnAddress { hosts }
    }

    /// Whether `host` (a `Host` header: `name:port`) names this server;
    /// names are compared without regard to case.
    pub fn is_own_host(&self, host: &str) -> bool {
        self.hosts.iter().any(|own| own.eq_ignore_ascii_case(host))
    }

    /// Whether `origin` (an `Origin` header: `http://name:port`) is this
    /// server's own page.
    pub fn is_own_origin(&self, origin: &str) -> bool {
        const SCHEME: &str = "http://";
        origin
            .get(..SCHEME.len())
            .is_some_and(|scheme| scheme.eq_ignore_ascii_case(SCHEME))
            && self.is_own_host(&origin[SCHEME.len()..])
    }

    /// The address listened on, as `host:port`.
    fn listened(&self) -> &str {
        &self.hosts[0]
    }
}

/// Middleware: refuses with a JSON error a request that is not addressed
/// to `own` (`400` without a host, `421 Misdirected Request` to another:
/// the request was meant for a server this is not), and one that may
/// change something from another site's page (`403 Forbidden`).
pub async fn only_own_page(
    State(own): State<OwnAddress>,
    request: Request,
    next: Next,
) -> Response {
    match refusal(&own, &request) {
        Some(error) => error.into_response(),
        None => next.run(request).await,
    }
}

/// Why `request` is refused, if it is.
fn refusal(own: &OwnAddress, request: &Request) -> Option<ApiError> {
    let listened = own.listened();
    // HTTP/1.1 requires a Host; a target in absolute form (`GET
    // http://host/path`) names the host too, and then both must be ours.
    let target = request
        .uri()
        .authority()
        .map(|authority| authority.as_str());
    let hosts = request.headers().get_all(HOST).iter().map(text);
    let named: Vec<&str> = target.into_iter().chain(hosts).collect();
    if named.is_empty() {
        return Some(ApiError::bad_request(format!(
            "the request names no host (a Host header): this server answers requests to {listened} only"
        )));
    }
    if let Some(foreign) = named.iter().find(|host| !own.is_own_host(host)) {
        return Some(ApiError {
            status: StatusCode::MISDIRECTED_REQUEST,
            message: format!(
                "this server answers requests to {listened} only, not to '{}'",
                shown(foreign)
            ),
        });
    }
    let method = request.method();
    if method.is_safe() {
        return None;
    }
    let forbidden = |from: String| {
        ApiError {
        status: StatusCode::FORBIDDEN,
        message: format!(
            "{method} from {from} refused: only this server's own page, http://{listened}/, may change anything"
        ),
    }
    };
    if let Some(origin) = request.headers().get(ORIGIN).map(text) {
        return (!own.is_own_origin(origin))
            .then(|| forbidden(format!("the page at '{}'", shown(origin))));
    }
    // Without an Origin, a browser's Sec-Fetch-Site still tells another
    // site's page ("same-site" is another port or name: not this page).
    let site = request.headers().get("sec-fetch-site").map(text)?;
    matches!(site, "cross-site" | "same-site")
        .then(|| forbidden(format!("another site's page (Sec-Fetch-Site: {site})")))
}

/// A header's value; one that is not visible ASCII, which no address of
/// this server is, reads as empty.
fn text(value: &HeaderValue) -> &str {
    value.to_str().unwrap_or("")
}

/// A refused value as a message shows it: at most [`SHOWN_CHARS`]
/// characters.
fn shown(value: &str) -> String {
    value.chars().take(SHOWN_CHARS).collect()
}
