//! The legality suite's positions for `reversi arena` (`--format legality`, and the
//! suite a `--policy csu` tournament runs first): `--positions` a folder of Tri-state
//! board files, one board file, a file of Umea positions, or `builtin:WIDTHxHEIGHT`
//! (a built-in set of that shape); else the built-in 8x8 set.

use std::fs;
use std::path::Path;

use anyhow::Result;

use super::arena::bad;
use crate::arena::legality::{self, Suite};
use crate::arena::openings;
use crate::arena::protocol::tristate::Tristate;
use crate::arena::shaped::{self, Board};
use crate::format::tristate;
use crate::printable::printable;

/// The largest file of the suite read, in bytes: far above a board of
/// 65,536 cells with spaces between them, or thousands of Umea positions.
const MAX_FILE_BYTES: u64 = 1 << 24;

/// The suite of `positions` (none: the built-in 8x8 set of `seed`) and its words for
/// the reports. Board files are asked through `tristate` only (`protocol` the
/// `--protocol`'s name, `conventions` its coordinates'); Umea positions through
/// either per-move protocol.
pub(super) fn suite(
    positions: Option<&Path>,
    seed: u64,
    protocol: &str,
    tristate: Tristate,
) -> Result<(Suite, String)> {
    let Some(path) = positions else {
        let (total, passes) = legality::BUILT_IN;
        return Ok((
            Suite::Positions(legality::built_in(seed)),
            format!("{total} built-in mid-game positions of seed {seed}, {passes} of them passes"),
        ));
    };
    let shown = printable(&path.display().to_string()).into_owned();
    if let Some(size) = shown.strip_prefix(BUILT_IN) {
        return built_in(size, seed, protocol, tristate);
    }
    let Some(boards) = board_files(path)? else {
        let list = openings::parse_file(&read(path)?).map_err(|e| bad(&shown, e))?;
        let words = format!("{} positions of {shown}", list.len());
        return Ok((Suite::Positions(list), words));
    };
    if protocol != "tristate" {
        return Err(bad(
            &shown,
            format!(
                "Tri-state board files are asked through --protocol tristate; {protocol} \
                 takes Umea positions, one a line"
            ),
        ));
    }
    let suite = Suite::Boards(boards, tristate);
    let words = format!(
        "{} board file{} of {shown} ({})",
        suite.len(),
        if suite.len() == 1 { "" } else { "s" },
        suite.shapes()
    );
    Ok((suite, words))
}

/// The board files of `path`: a folder of them, or one; `None` when `path` is a
/// file of Umea positions. Each refused (naming the file and the line) when it is not
/// a board file or the game is over on it.
pub(super) fn board_files(path: &Path) -> Result<Option<Vec<Board>>> {
    if path.is_dir() {
        return folder(path).map(Some);
    }
    let text = read(path)?;
    if !is_board_file(&text) {
        return Ok(None);
    }
    Ok(Some(vec![board(path, &text)?]))
}

/// Whether `text` is a Tri-state board file rather than Umea positions: its first
/// line (blank lines and `#` lines passed over) is `B|W width height`, where an Umea
/// position is one word.
fn is_board_file(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .is_some_and(|line| line.split_whitespace().count() == 3)
}

/// What `--positions` starts with to name a built-in suite of a shape.
const BUILT_IN: &str = "builtin:";

/// The built-in suite of a shape, `WIDTHxHEIGHT` (`--positions builtin:10x8`), and
/// its words.
fn built_in(size: &str, seed: u64, protocol: &str, tristate: Tristate) -> Result<(Suite, String)> {
    let what = format!("--positions {BUILT_IN}{size}");
    let sides = shaped::BUILT_IN_SIDES;
    let (width, height) = size
        .split_once('x')
        .and_then(|(w, h)| Some((w.parse::<usize>().ok()?, h.parse::<usize>().ok()?)))
        .filter(|(w, h)| sides.contains(w) && sides.contains(h))
        .ok_or_else(|| {
            bad(
                &what,
                format!(
                    "expected WIDTHxHEIGHT, each {} to {}",
                    sides.start(),
                    sides.end()
                ),
            )
        })?;
    if protocol != "tristate" {
        return Err(bad(
            &what,
            "a board of another shape is Tri-state's: --protocol tristate".into(),
        ));
    }
    let boards = shaped::built_in(seed, width, height);
    let skips = boards
        .iter()
        .filter(|b| !b.problem.grid.can_move(b.problem.colour))
        .count();
    let suite = Suite::Boards(boards, tristate);
    let words = format!(
        "{} built-in positions of seed {seed} ({}), {skips} of them skips",
        suite.len(),
        suite.shapes()
    );
    Ok((suite, words))
}

/// Every regular file of `folder` whose name does not start with `.`, in name order,
/// each a board file.
fn folder(folder: &Path) -> Result<Vec<Board>> {
    let shown = printable(&folder.display().to_string()).into_owned();
    let mut paths = Vec::new();
    for item in fs::read_dir(folder).map_err(|e| bad(&shown, e.to_string()))? {
        let item = item.map_err(|e| bad(&shown, e.to_string()))?;
        let hidden = item.file_name().to_string_lossy().starts_with('.');
        if !hidden && item.path().is_file() {
            paths.push(item.path());
        }
    }
    paths.sort();
    if paths.is_empty() {
        return Err(bad(&shown, "no board file in this folder".into()));
    }
    paths.iter().map(|path| board(path, &read(path)?)).collect()
}

/// The board file `text` of `path`, refused (naming the file and the line) when it is
/// not one or when the game is over on it.
fn board(path: &Path, text: &str) -> Result<Board> {
    let shown = printable(&path.display().to_string()).into_owned();
    let problem = tristate::parse(text).map_err(|e| bad(&shown, e.to_string()))?;
    if shaped::is_over(&problem) {
        return Err(bad(
            &shown,
            "neither side has a move: the game is over, no answer to judge".into(),
        ));
    }
    let name = path
        .file_name()
        .map_or(shown.clone(), |n| n.to_string_lossy().into_owned());
    Ok(Board { name, problem })
}

/// The text of `path` (refused past [`MAX_FILE_BYTES`]).
fn read(path: &Path) -> Result<String> {
    let shown = printable(&path.display().to_string()).into_owned();
    let size = fs::metadata(path)
        .map_err(|e| bad(&shown, e.to_string()))?
        .len();
    if size > MAX_FILE_BYTES {
        return Err(bad(&shown, format!("{size} bytes: too large for a suite")));
    }
    let bytes = fs::read(path).map_err(|e| bad(&shown, e.to_string()))?;
    String::from_utf8(bytes).map_err(|_| bad(&shown, "not UTF-8 text".into()))
}
