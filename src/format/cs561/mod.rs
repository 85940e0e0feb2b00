//! The USC CSCI-561 Reversi homework: `input.txt` in, `output.txt` (next board and
//! traverse log) out, in three dialects (SPEC.md section 1); f2014 task 4 plays one
//! move under the clock and writes the next board only.

mod competition;
mod input;
mod log;
mod output;
mod records;

pub use competition::{
    competition_answer, competition_budget, play_competition, write_competition,
};
pub use input::{
    parse, parse_request, Competition, Dialect, InputError, InputErrorKind, Player, Problem,
    Request, Task, MAX_INPUT_BYTES,
};
pub use log::{Columns, LogWriter};
pub use output::{
    board_lines, input_file, params as search_params, write_output, write_output_stream,
};
