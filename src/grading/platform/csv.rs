//! A class as a CSV table: one row per student, one column per case (its verdict).

use super::points;
use crate::grading::grade::StudentGrade;
use crate::printable::printable;

/// The table of `grades` over the cases named `cases`.
pub fn class_table(grades: &[StudentGrade], cases: &[String]) -> String {
    let mut header = vec![
        "student".to_string(),
        "score".into(),
        "max_score".into(),
        "passed".into(),
        "byte_exact".into(),
        "total".into(),
        "most_common_mistake".into(),
    ];
    header.extend(cases.iter().cloned());
    let mut text = row(&header);
    for grade in grades {
        let mut fields = vec![
            grade.student.clone(),
            points(grade.score),
            points(grade.max_score),
            grade.passed.to_string(),
            grade.byte_exact.to_string(),
            grade.total.to_string(),
            grade.most_common(),
        ];
        for name in cases {
            let verdict = grade
                .cases
                .iter()
                .find(|c| &c.case == name)
                .map_or("NOT RUN", |c| c.verdict.word());
            fields.push(verdict.into());
        }
        text += &row(&fields);
    }
    text
}

/// One CSV line, ended by CRLF as RFC 4180 has it: each field on one line with its
/// control characters escaped (a newline in a student's folder name cannot start a
/// row), quoted where it must be, and a leading `=`, `+`, `-` or `@` defused (a
/// spreadsheet would run it as a formula; students name the folders).
fn row(fields: &[String]) -> String {
    let quoted: Vec<String> = fields.iter().map(|field| field_text(field)).collect();
    quoted.join(",") + "\r\n"
}

fn field_text(field: &str) -> String {
    let field = printable(field);
    let formula = field.starts_with(['=', '+', '-', '@']);
    let field = if formula {
        format!("'{field}")
    } else {
        field.to_string()
    };
    if field.contains([',', '"']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_and_formulas_defused() {
        assert_eq!(field_text("alice"), "alice");
        assert_eq!(field_text("a,b"), "\"a,b\"");
        assert_eq!(field_text("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(field_text("=cmd|' /C calc'!A0"), "'=cmd|' /C calc'!A0");
        assert_eq!(field_text("a\nb,FAKE,100"), "\"a\\nb,FAKE,100\"");
        assert_eq!(field_text("\tx\u{1b}[2J"), "\\tx\\u{1b}[2J");
    }
}
