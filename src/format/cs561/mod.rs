//! The USC CSCI-561 Reversi homework: `input.txt` in, `output.txt` (next board and
//! traverse log) out, in three dialects (SPEC.md section 1).

mod input;
mod log;
mod output;

pub use input::{
    parse, Dialect, InputError, InputErrorKind, Player, Problem, Task, MAX_INPUT_BYTES,
};
pub use log::{Columns, LogWriter};
pub use output::{board_lines, write_output, write_output_stream};
