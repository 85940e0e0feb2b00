//! A class as a CSV table: one row per student, one column per case (its verdict).

use super::points;
use crate::grading::grade::StudentGrade;
use crate::printable::printable;

/// The table of `grades` over the cases named `cases`, as RFC 4180 has it (CRLF line
/// ends, fields quoted where they must be), written by the `csv` crate; each field is
/// first made safe (escaped, formulas defused).
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
    let mut writer = csv::WriterBuilder::new()
        .terminator(csv::Terminator::CRLF)
        .from_writer(Vec::new());
    let mut row = |fields: &[String]| {
        writer
            .write_record(fields.iter().map(|f| field_text(f)))
            .expect("writing to memory cannot fail");
    };
    row(&header);
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
        row(&fields);
    }
    let bytes = writer.into_inner().expect("writing to memory cannot fail");
    String::from_utf8(bytes).expect("the fields are text")
}

/// A field made safe before it is written: on one line with its control characters
/// escaped (a newline in a student's folder name cannot start a row), and a leading
/// `=`, `+`, `-` or `@` defused with a `'` (a spreadsheet would run it as a formula;
/// students name the folders). The `csv` writer then quotes it where it must be.
pub fn field_text(field: &str) -> String {
    let field = printable(field);
    if field.starts_with(['=', '+', '-', '@']) {
        format!("'{field}")
    } else {
        field.into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One row of `fields` as the table writes it.
    fn line(fields: &[&str]) -> String {
        let mut writer = csv::WriterBuilder::new()
            .terminator(csv::Terminator::CRLF)
            .from_writer(Vec::new());
        writer
            .write_record(fields.iter().map(|f| field_text(f)))
            .unwrap();
        String::from_utf8(writer.into_inner().unwrap()).unwrap()
    }

    #[test]
    fn fields_are_quoted_and_formulas_defused() {
        assert_eq!(line(&["alice"]), "alice\r\n");
        assert_eq!(line(&["a,b", "c"]), "\"a,b\",c\r\n");
        assert_eq!(line(&["say \"hi\""]), "\"say \"\"hi\"\"\"\r\n");
        assert_eq!(line(&["=cmd|' /C calc'!A0"]), "'=cmd|' /C calc'!A0\r\n");
        assert_eq!(line(&["a\nb,FAKE,100"]), "\"a\\nb,FAKE,100\"\r\n");
        assert_eq!(line(&["\tx\u{1b}[2J"]), "\\tx\\u{1b}[2J\r\n");
    }
}
