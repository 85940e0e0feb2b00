//! Headless Chromium driven through chromedriver (WebDriver) by fantoccini, for the
//! arena's page test (tests/arena_reports.rs), as tests/tree_browser.rs drives it.

use std::future::Future;
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::json;

/// A chromedriver of our own, on a free port, in a process group of its own: the
/// group (chromedriver and the browsers it started) is killed when this is dropped.
struct Driver {
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
