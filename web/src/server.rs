//! Running the server: listen on the loopback address, say where, open
//! a browser on request, and serve until the process is stopped.

use std::io::Write;
use std::net::{Ipv4Addr, SocketAddr};

use axum::middleware::from_fn_with_state;
use tokio::net::TcpListener;

use crate::api::{router, AppState, SharedState};
use crate::guard::{only_own_page, OwnAddress};

/// How `kurier serve` was asked to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServeOptions {
    /// The port on 127.0.0.1 (0: any free one).
    pub port: u16,
    /// Whether to open the page in the default browser.
    pub open: bool,
    /// Each game's hash table, MiB.
    pub hash_mb: usize,
}

/// Listens on 127.0.0.1 (only this machine may connect), prints the
/// page's address as the first line of standard output, and serves
/// until the process is stopped (Ctrl-C). No state outlives the
/// process, so there is nothing to save on the way out.
pub async fn serve(options: &ServeOptions) -> Result<(), String> {
    let wanted = SocketAddr::from((Ipv4Addr::LOCALHOST, options.port));
    let listener = TcpListener::bind(wanted).await.map_err(|e| {
        format!("cannot listen on {wanted}: {e} (is another program using the port? choose one with --port)")
    })?;
    let address = listened(&listener)?;
    let state = AppState::new(options.hash_mb)?;
    let url = format!("http://{address}/");
    let mut stdout = std::io::stdout().lock();
    // Where the page is, for a person and for a program that started us;
    // a closed output is no reason not to serve.
    let _ = writeln!(stdout, "Kurier board at {url} (Ctrl-C stops it)");
    let _ = stdout.flush();
    drop(stdout);
    if options.open {
        if let Err(e) = open::that_detached(&url) {
            eprintln!("kurier serve: could not open a browser ({e}); open {url} in one");
        }
    }
    serve_on(listener, state).await
}

/// Serves `state` on `listener` until the process is stopped: the
/// routes of [`router`], which only the page of the address listened on
/// may drive ([`only_own_page`]).
pub async fn serve_on(listener: TcpListener, state: SharedState) -> Result<(), String> {
    let own = OwnAddress::new(listened(&listener)?);
    let app = router(state).layer(from_fn_with_state(own, only_own_page));
    axum::serve(listener, app)
        .await
        .map_err(|e| format!("the server stopped: {e}"))
}

fn listened(listener: &TcpListener) -> Result<SocketAddr, String> {
    listener
        .local_addr()
        .map_err(|e| format!("cannot tell the address listened on: {e}"))
}
