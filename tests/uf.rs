//! UF CAP4053 example AI: the nine games of testcases/uf/example_vs_example.txt (the
//! course's own program against itself), and the `reversi uf` command line.

use std::fs;

use reversi::eval::uf::UfExample;
use reversi::format::uf::game_text;
use reversi::rules::Rules;
use reversi::search::uf::{play_game, Level};

const GAMES: &str = "testcases/uf/example_vs_example.txt";

#[test]
fn the_nine_games_match_the_course_listing_move_for_move() {
    let expected = fs::read_to_string(GAMES).unwrap();
    let mut expected_games = expected.split_inclusive('\n').collect::<Vec<_>>();
    let mut ours = Vec::new();
    for black in Level::ALL {
        for white in Level::ALL {
            ours.push(game_text(&play_game(
                Rules::STANDARD,
                black,
                white,
                &UfExample,
            )));
        }
    }
    let pairs: Vec<String> = expected_games
        .chunks_mut(2)
        .map(|lines| lines.concat())
        .collect();
    assert_eq!(pairs.len(), 9);
    for (ours, theirs) in ours.iter().zip(&pairs) {
        pretty_assertions::assert_eq!(ours, theirs);
    }
}
