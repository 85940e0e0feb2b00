//! The browser side of `tests/tree_browser.rs`: a chromedriver of our own, a headless
//! Chromium session per scenario, the pages `reversi tree` writes, and small readers
//! of their DOM.

use std::fs;
use std::future::Future;
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{json, Value};

use reversi::explain::replay::Position;
use reversi::format::cs561;
use reversi::tree::{Limits, Tree};

/// A chromedriver of our own, on a free port, in a process group of its own: the
/// group (chromedriver and the browsers it started) is killed when this is dropped.
pub struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    fn start() -> Driver {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect(
                "cannot start chromedriver: `make test` installs Debian's chromium and \
                 chromium-driver (apt-get install -y chromium chromium-driver)",
            );
        let driver = Driver { child, port };
        let started = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "chromedriver did not listen on port {port}"
            );
            thread::sleep(Duration::from_millis(50));
        }
        driver
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let group = -(self.child.id() as i32);
        // SAFETY: kill(2) on the process group this test started; no memory involved.
        unsafe {
            libc::kill(group, libc::SIGKILL);
        }
        let _ = self.child.wait();
    }
}

/// Runs `scenario` against a new headless Chromium, which is closed afterwards
/// whether the scenario passed or panicked.
pub fn in_chromium<F, Fut>(scenario: F)
where
    F: FnOnce(Client) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let driver = Driver::start();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let mut capabilities = serde_json::Map::new();
        capabilities.insert(
            "goog:chromeOptions".into(),
            json!({ "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,900", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync"
            ] }),
        );
        let client = ClientBuilder::new(HttpConnector::new())
            .capabilities(capabilities)
            .connect(&format!("http://127.0.0.1:{}", driver.port))
            .await
            .expect("a Chromium session from chromedriver");
        let outcome = tokio::spawn(scenario(client.clone())).await;
        let _ = client.close().await;
        if let Err(error) = outcome {
            match error.try_into_panic() {
                Ok(panic) => std::panic::resume_unwind(panic),
                Err(error) => panic!("{error}"),
            }
        }
    });
}

pub fn case_path(path: &str) -> String {
    format!("{}/testcases/{path}", env!("CARGO_MANIFEST_DIR"))
}

pub fn case(path: &str) -> String {
    fs::read_to_string(case_path(path)).unwrap()
}

/// Runs `reversi tree ARGS -o DIR/NAME.html` and returns the page's URL.
pub fn page(dir: &Path, name: &str, args: &[&str]) -> String {
    let out = dir.join(format!("{name}.html"));
    let status = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .arg("tree")
        .args(args)
        .arg("-o")
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success(), "reversi tree {args:?}");
    format!("file://{}", out.display())
}

/// The tree the page draws, rebuilt here to know what the page must show.
pub fn tree_of(input: &str, log: Option<&str>) -> (Tree, Position) {
    let problem = cs561::parse(input.as_bytes(), None).unwrap();
    let root = Position::root(&problem);
    let output = match log {
        Some(log) => log.to_string(),
        None => String::from_utf8(reversi::grading::batch::solve_problem(
            &problem,
            reversi::format::Style::default(),
        ))
        .unwrap(),
    };
    let tree = Tree::from_output(&output, Some(root), &Limits::default()).unwrap();
    (tree, root)
}

pub fn node_at(tree: &Tree, path: &str) -> usize {
    (0..tree.nodes.len())
        .find(|&n| tree.path_text(n) == path)
        .unwrap_or_else(|| panic!("no node {path}"))
}

pub async fn js(client: &Client, script: &str) -> Value {
    client.execute(script, Vec::new()).await.unwrap()
}

/// Finds `css` and acts on it, finding it again when the page redrew it in between
/// (its rows are drawn anew as the view moves, and a row found just before a redraw
/// is stale by the time it is read or clicked, more often on a loaded machine).
pub async fn on_fresh<T, F, Fut>(client: &Client, css: &str, act: F) -> T
where
    F: Fn(fantoccini::elements::Element) -> Fut,
    Fut: Future<Output = Result<T, fantoccini::error::CmdError>>,
{
    let mut attempts = 1;
    loop {
        let element = client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|_| panic!("no {css}"));
        match act(element).await {
            Ok(value) => return value,
            Err(e) if attempts < 10 && e.to_string().contains("stale element") => {
                attempts += 1;
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(e) => panic!("{css}: {e}"),
        }
    }
}

pub async fn text(client: &Client, css: &str) -> String {
    on_fresh(client, css, |element| async move { element.text().await }).await
}

pub async fn texts(client: &Client, css: &str) -> Vec<String> {
    let script = format!(
        "return [...document.querySelectorAll({})].map(e => e.textContent)",
        json!(css)
    );
    serde_json::from_value(js(client, &script).await).unwrap()
}

pub async fn tree_attribute(client: &Client, name: &str) -> usize {
    let tree = client.find(Locator::Id("tree")).await.unwrap();
    tree.attr(name).await.unwrap().unwrap().parse().unwrap()
}

pub async fn click(client: &Client, css: &str) {
    on_fresh(client, css, |element| async move { element.click().await }).await;
}

pub async fn press(client: &Client, key: Key) {
    let tree = client.find(Locator::Id("tree")).await.unwrap();
    tree.send_keys(&key.to_string()).await.unwrap();
}

/// The node the page has selected, from its selected row.
pub async fn selected(client: &Client) -> usize {
    on_fresh(client, ".row.selected", |row| async move {
        row.attr("data-node").await
    })
    .await
    .expect("a data-node attribute")
    .parse()
    .unwrap()
}

/// Saves a screenshot as `target/tree-screenshots/NAME.png`.
pub async fn screenshot(client: &Client, name: &str) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("tree-screenshots");
    fs::create_dir_all(&dir).unwrap();
    let png = client.screenshot().await.unwrap();
    assert!(png.starts_with(b"\x89PNG"));
    fs::write(dir.join(format!("{name}.png")), png).unwrap();
}

pub fn row(node: usize) -> String {
    format!(".row.node[data-node=\"{node}\"]")
}
