//! Engine benchmarks: move generation, flips, perft, and the CS561 search with and
//! without its log. `make bench` also runs the three end-to-end positions.

use std::hint::black_box;
use std::io;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use reversi::board::{perft, Board, Geometry, Squares};
use reversi::course_search::{search, LeafRule, NoTrace, SearchParams};
use reversi::eval::Cs561;
use reversi::format::cs561::{self, Columns, LogWriter};
use reversi::format::Style;

/// Positions met in a real tree: every node of a depth-5 perft from the start.
fn sample_positions() -> Vec<Board> {
    fn walk(board: Board, depth: u32, out: &mut Vec<Board>) {
        out.push(board);
        if depth > 0 {
            for square in Squares(board.moves()) {
                walk(board.play(square), depth - 1, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(Geometry::STANDARD.start(), 5, &mut out);
    out
}

/// A benchmark position of `testcases/perf/` (shipped with the repository).
fn perf_problem(name: &str) -> cs561::Problem {
    let path = format!("{}/testcases/perf/{name}.in", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    cs561::parse(&text, None).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn board_benches(c: &mut Criterion) {
    let positions = sample_positions();
    let mut group = c.benchmark_group("board");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("moves", |b| {
        b.iter(|| {
            positions
                .iter()
                .fold(0u64, |acc, p| acc ^ black_box(*p).moves())
        })
    });
    let moves: Vec<(Board, reversi::board::Square)> = positions
        .iter()
        .flat_map(|&p| Squares(p.moves()).map(move |s| (p, s)))
        .collect();
    group.throughput(Throughput::Elements(moves.len() as u64));
    group.bench_function("flips", |b| {
        b.iter(|| {
            moves
                .iter()
                .fold(0u64, |acc, &(p, s)| acc ^ black_box(p).flips(s))
        })
    });
    group.finish();

    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.throughput(Throughput::Elements(3_005_288));
    group.bench_function("8x8 depth 9", |b| {
        b.iter(|| perft(Geometry::STANDARD.start(), Geometry::STANDARD, black_box(9)))
    });
    group.finish();
}

fn search_benches(c: &mut Criterion) {
    let problem = perf_problem("mid-d8");
    let params = SearchParams {
        depth: problem.depth,
        leaf_rule: LeafRule::PassAfterPass,
        pruning: true,
    };
    let mut group = c.benchmark_group("search mid-d8");
    group.sample_size(10);
    group.bench_function("no log", |b| {
        b.iter(|| search(black_box(problem.root()), params, &Cs561, &mut NoTrace))
    });
    group.bench_function("log to a sink", |b| {
        b.iter(|| {
            let mut log =
                LogWriter::new(io::sink(), Style::default(), Columns::ValueAlphaBeta, &[]);
            let outcome = search(black_box(problem.root()), params, &Cs561, &mut log);
            log.finish(false, |_| {}).unwrap();
            outcome
        })
    });
    group.finish();
}

criterion_group!(benches, board_benches, search_benches);
criterion_main!(benches);
