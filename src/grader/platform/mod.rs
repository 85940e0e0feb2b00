//! What graders and platforms read about a class: the text report of a student
//! ([`text`]), a CSV table ([`csv`]), JUnit XML for CI systems ([`junit`]),
//! Gradescope's `results.json` ([`gradescope`]) and Vocareum's grade and report
//! files ([`vocareum`]). Each platform's format is written in one place, here.

pub mod csv;
pub mod gradescope;
pub mod junit;
pub mod text;
pub mod vocareum;

/// A score as the reports print it: `3`, `2.5`.
pub fn points(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        format!("{:.2}", value)
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn points_print_without_needless_decimals() {
        assert_eq!(super::points(3.0), "3");
        assert_eq!(super::points(2.5), "2.5");
        assert_eq!(super::points(1.0 / 3.0), "0.33");
    }
}
