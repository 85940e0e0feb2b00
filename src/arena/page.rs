//! The arena's HTML page: one self-contained file (its style and script inside) with
//! the terms, the standings (Elo with its 95% interval, the grade), the crosstable,
//! and every game replayable move by move on a board, with its forfeit and review.
//!
//! What agents wrote (names, answers) reaches the page only escaped: the tables are
//! written here with markup escaped, and the games are the JSON report embedded as
//! data (`<` written `\u003c`, so no text can close its element), which the page's
//! script (`page.js`) puts into the page as text only.

use std::fmt::Write as _;

use serde_json::Value;

use super::grades::{scores_against, Grade};
use super::report::{games_a_pairing, Header, Standing};
use super::schedule::Results;
use crate::format::umea::position_text;
use crate::grading::platform::junit::escape;
use crate::grading::platform::points;
use crate::printable::printable;

const SCRIPT: &str = include_str!("page.js");

const STYLE: &str = "body{font-family:sans-serif;margin:1em 2em}table{border-collapse:collapse}\
td,th{border:1px solid #bbb;padding:2px 6px}#board td{width:28px;height:28px;\
text-align:center;background:#2e7d32;color:transparent}#board td.black{background:#2e7d32;\
color:#000;font-weight:bold}#board td.white{color:#fff;font-weight:bold}#board td.last{outline:3px solid #fbc02d}\
li.game{cursor:pointer}#moves li{display:inline;margin-right:6px;cursor:pointer}\
#moves li.current{background:#fbc02d}#forfeit{color:#b71c1c}";

/// HTML text of something an agent or the TA wrote: control characters shown as the
/// terminal shows them, then markup escaped.
fn html(text: &str) -> String {
    escape(&printable(text))
}

/// The JSON report `report` (as [`super::report::json_value`] gives it, with any
/// reviews and grading added) with each game's `boards`: the Umea position before
/// each move and after the last.
fn page_data(results: &Results, report: &Value) -> Value {
    let mut data = report.clone();
    if let Some(Value::Array(games)) = data.get_mut("games") {
        for (game, played) in games.iter_mut().zip(&results.games) {
            let mut position = played.game.start;
            let mut boards = vec![Value::String(position_text(position))];
            for &m in &played.game.moves {
                position = position.after(m);
                boards.push(Value::String(position_text(position)));
            }
            if let Value::Object(game) = game {
                game.insert("boards".into(), Value::Array(boards));
            }
        }
    }
    data
}

/// The page.
pub fn page(
    header: &Header,
    results: &Results,
    standings: &[Standing],
    grades: Option<&[Grade]>,
    report: &Value,
) -> String {
    let mut out =
        String::from("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    let _ = writeln!(
        out,
        "<title>arena: {} {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>arena: {} {}</h1>",
        html(&header.protocol),
        html(&header.format),
        html(&header.protocol),
        html(&header.format)
    );
    out += "<ul id=\"terms\">\n";
    let _ = writeln!(
        out,
        "<li>{}, seed {}</li>\n<li>openings: {}</li>\n<li>sandbox: {}</li>",
        games_a_pairing(header.games_per_pairing),
        header.seed,
        html(&header.openings),
        html(&header.sandbox)
    );
    for term in &header.terms {
        let _ = writeln!(out, "<li>{}</li>", html(term));
    }
    out += "</ul>\n<h2>Standings</h2>\n<table id=\"standings\">\n<tr><th>rank</th><th>player</th>\
            <th>games</th><th>won</th><th>drew</th><th>lost</th><th>forfeits</th><th>score</th>\
            <th>Elo</th><th>95% interval</th>";
    if grades.is_some() {
        out += "<th>grade</th><th>points</th>";
    }
    out += "</tr>\n";
    let order = super::report::ranking(standings);
    let number = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.0}"));
    for (rank, &i) in order.iter().enumerate() {
        let s = &standings[i];
        let _ = write!(
            out,
            "<tr><td>{}</td><td class=\"player\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{}</td><td>{:.3}</td><td>{}</td><td>{} to {}</td>",
            rank + 1,
            html(&s.name),
            s.games,
            s.wins,
            s.draws,
            s.losses,
            s.forfeits,
            s.score,
            number(s.elo),
            number(s.elo_low),
            number(s.elo_high)
        );
        if let Some(grades) = grades {
            match grades.iter().find(|g| g.name == s.name) {
                Some(g) => {
                    let _ = write!(
                        out,
                        "<td title=\"{}\">{}</td><td>{} of {}</td>",
                        html(&g.why),
                        html(&g.mark),
                        points(g.points),
                        points(g.max_points)
                    );
                }
                None => out += "<td></td><td></td>",
            }
        }
        out += "</tr>\n";
    }
    out += "</table>\n<h2>Crosstable</h2>\n<table id=\"crosstable\">\n<tr><th></th>";
    for &j in &order {
        let _ = write!(out, "<th>{}</th>", html(&standings[j].name));
    }
    out += "</tr>\n";
    for &i in &order {
        let _ = write!(out, "<tr><th>{}</th>", html(&standings[i].name));
        for &j in &order {
            let scores = scores_against(results, i, j);
            let cell = if i == j {
                "x".to_string()
            } else if scores.is_empty() {
                String::new()
            } else {
                format!("{}/{}", points(scores.iter().sum()), scores.len())
            };
            let _ = write!(out, "<td>{cell}</td>");
        }
        out += "</tr>\n";
    }
    out += "</table>\n<h2>Games</h2>\n<ol id=\"game-list\"></ol>\n<div id=\"viewer\">\n\
            <h3 id=\"game-title\"></h3>\n<table id=\"board\"></table>\n<p id=\"move-info\"></p>\n\
            <p><button id=\"first\">first</button> <button id=\"prev\">previous</button> \
            <button id=\"next\">next</button> <button id=\"last\">last</button></p>\n\
            <ol id=\"moves\"></ol>\n<div id=\"forfeit\"></div>\n<div id=\"review\"></div>\n</div>\n";
    let data = serde_json::to_string(&page_data(results, report)).expect("a JSON value serializes");
    // No text can end the data's element or open a comment in it.
    let data = data
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026");
    let _ = writeln!(
        out,
        "<script type=\"application/json\" id=\"arena-data\">{data}</script>\n<script>{SCRIPT}</script>\n</body>\n</html>"
    );
    out
}
