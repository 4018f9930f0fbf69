//! The playground: a single page, embedded in the binary, where a person plays
//! any game against the bot through the public API. No build step: the files in
//! `playground/` are served as they are.

use super::AppState;
use axum::http::{header, Method};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, MethodRouter};

/// One embedded file of the playground and the path it is served at.
pub struct Asset {
    /// The URL path.
    pub path: &'static str,
    /// The `Content-Type` it is served with.
    pub content_type: &'static str,
    /// The file itself.
    pub body: &'static str,
}

/// Every file of the playground; `/` is the page, the others are what it loads.
pub static ASSETS: [Asset; 3] = [
    Asset {
        path: "/",
        content_type: "text/html; charset=utf-8",
        body: include_str!("playground/index.html"),
    },
    Asset {
        path: "/playground/app.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("playground/app.js"),
    },
    Asset {
        path: "/playground/style.css",
        content_type: "text/css; charset=utf-8",
        body: include_str!("playground/style.css"),
    },
];

/// A route for every asset, in the shape of the router's route table.
pub fn routes() -> Vec<(&'static str, Method, MethodRouter<AppState>)> {
    ASSETS
        .iter()
        .map(|asset| (asset.path, Method::GET, get(move || serve(asset))))
        .collect()
}

/// The asset with its content type. `no-cache` makes browsers revalidate, so a
/// new release's page is picked up at once.
async fn serve(asset: &'static Asset) -> Response {
    (
        [
            (header::CONTENT_TYPE, asset.content_type),
            (header::CACHE_CONTROL, "no-cache"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        asset.body,
    )
        .into_response()
}
