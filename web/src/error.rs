//! Every failed request gets one JSON body, `{"error": "..."}`, with the
//! status that fits; the body extractors here turn a malformed body into
//! such an error rather than axum's plain-text rejection.

use axum::extract::rejection::{JsonRejection, StringRejection};
use axum::extract::{FromRequest, Request};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::de::DeserializeOwned;

/// How long a client told "busy" should wait before it asks again, in
/// seconds (the `Retry-After` of every `503`).
pub const RETRY_AFTER_SECONDS: u64 = 5;

/// A failed request: its status and what went wrong, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// What went wrong, for the page to show.
    pub message: String,
}

impl ApiError {
    /// `400 Bad Request`: the request cannot be carried out as sent.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    /// `404 Not Found`: no such game, document or endpoint.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::NOT_FOUND,
            message: message.into(),
        }
    }

    /// `409 Conflict`: the request is well formed but not now (a move
    /// while the engine is to move, a move after the game ended).
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::CONFLICT,
            message: message.into(),
        }
    }

    /// `503 Service Unavailable`, with `Retry-After`: the server has no
    /// room for the work now (the engine is busy); `reason` says why,
    /// the message adds when to try again.
    pub fn busy(reason: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: format!("{}; try again in {RETRY_AFTER_SECONDS} s", reason.into()),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = Json(serde_json::json!({ "error": self.message }));
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            let retry = [(header::RETRY_AFTER, RETRY_AFTER_SECONDS.to_string())];
            return (self.status, retry, body).into_response();
        }
        (self.status, body).into_response()
    }
}

/// A JSON body, or an [`ApiError`] that says what is wrong with it
/// (not JSON, wrong content type, a missing or unknown field, too large).
pub struct JsonBody<T>(pub T);

impl<S, T> FromRequest<S> for JsonBody<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(request, state).await {
            Ok(Json(value)) => Ok(JsonBody(value)),
            Err(rejection) => Err(json_error(rejection)),
        }
    }
}

fn json_error(rejection: JsonRejection) -> ApiError {
    ApiError {
        status: rejection.status(),
        message: format!("the request body: {}", rejection.body_text()),
    }
}

/// A text body (a PGN, a journal, a variant file), or an [`ApiError`]
/// (not UTF-8, too large).
pub struct TextBody(pub String);

impl<S> FromRequest<S> for TextBody
where
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        match String::from_request(request, state).await {
            Ok(text) => Ok(TextBody(text)),
            Err(rejection) => Err(text_error(rejection)),
        }
    }
}

fn text_error(rejection: StringRejection) -> ApiError {
    ApiError {
        status: rejection.status(),
        message: format!("the request body: {}", rejection.body_text()),
    }
}
