//! The student's command: `{submission}` in it stands for the student's folder,
//! quoted for the shell, and the files it names are looked for there.

use std::fs;
use std::path::{Path, PathBuf};

use crate::grading::language;
use crate::sandbox::policy;

/// The placeholder replaced by the student's folder in a command.
pub const PLACEHOLDER: &str = "{submission}";

/// `command` with `{submission}` replaced by `folder`, quoted for the shell where
/// it stands (a student names the folder, so its name may hold anything): in single
/// quotes, in double quotes or bare, so that `"{submission}/my hw.py"` names the file.
/// A relative folder gets `./` before it, so that a folder named `-x` is never an
/// option of the program the command runs (the graders give absolute folders).
pub fn substitute(command: &str, folder: &Path) -> String {
    let folder = if folder.is_absolute() {
        folder.display().to_string()
    } else {
        format!("./{}", folder.display())
    };
    let mut out = String::with_capacity(command.len() + folder.len());
    let (mut single, mut double) = (false, false);
    let mut rest = command;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix(PLACEHOLDER) {
            if single {
                out += &folder.replace('\'', r"'\''");
            } else if double {
                for c in folder.chars() {
                    if matches!(c, '\\' | '$' | '"' | '`') {
                        out.push('\\');
                    }
                    out.push(c);
                }
            } else {
                out += &language::shell_quote(&folder);
            }
            rest = after;
            continue;
        }
        match c {
            '\\' if !single => {
                out.push(c);
                rest = &rest[1..];
                if let Some(next) = rest.chars().next() {
                    out.push(next);
                    rest = &rest[next.len_utf8()..];
                }
                continue;
            }
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            _ => {}
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The files `command` names in the student's folder: the rest of each word (as
/// the shell splits it) after `{submission}/`.
fn named_files(command: &str) -> Vec<String> {
    policy::command_words(command)
        .iter()
        .filter_map(|word| word.split_once(&format!("{PLACEHOLDER}/")))
        .map(|(_, relative)| relative.to_string())
        .filter(|relative| !relative.is_empty())
        .collect()
}

/// The first file that `command` names in the student's folder (a word holding
/// `{submission}/`) and that does not exist there.
fn missing_file(command: &str, folder: &Path) -> Option<String> {
    named_files(command)
        .into_iter()
        .find(|relative| !folder.join(relative).exists())
}

/// The folder that stands for `{submission}` in `command`: the student's `folder`
/// when it holds every file the command names, else the one folder in it that does
/// (a submission nested one folder down, as `hw1/hw.py`). `Err` names the first
/// file missing from `folder`.
pub fn locate(command: &str, folder: &Path) -> Result<PathBuf, String> {
    let Some(missing) = missing_file(command, folder) else {
        return Ok(folder.to_path_buf());
    };
    let mut inner: Vec<PathBuf> = fs::read_dir(folder)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .filter(|inner| missing_file(command, inner).is_none())
        .collect();
    inner.sort();
    match inner.len() {
        1 if !named_files(command).is_empty() => Ok(inner.remove(0)),
        _ => Err(missing),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_folder_is_quoted_for_the_shell() {
        let folder = Path::new("/subs/o'neil $(rm -rf ~)");
        assert_eq!(
            substitute("python3 {submission}/hw.py", folder),
            r"python3 '/subs/o'\''neil $(rm -rf ~)'/hw.py"
        );
    }

    #[test]
    fn a_relative_folder_is_never_an_option() {
        assert_eq!(
            substitute("python3 {submission}/hw.py", Path::new("-x")),
            "python3 './-x'/hw.py"
        );
    }

    #[test]
    fn a_named_file_missing_from_the_submission_is_found() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("hw.py"), "").unwrap();
        assert_eq!(missing_file("python3 {submission}/hw.py", dir.path()), None);
        assert_eq!(
            missing_file("python3 \"{submission}/hw1cs561s2017.py\"", dir.path()),
            Some("hw1cs561s2017.py".into())
        );
        assert_eq!(missing_file("java -cp {submission} Hw", dir.path()), None);
        assert_eq!(
            missing_file("python3 \"{submission}/my hw.py\"", dir.path()),
            Some("my hw.py".into())
        );
    }

    #[test]
    fn the_folder_is_quoted_for_where_it_stands() {
        let folder = Path::new("/subs/a b'$x\"");
        let words = |command: &str| shlex::split(&substitute(command, folder)).unwrap();
        let file = "/subs/a b'$x\"/my hw.py";
        assert_eq!(words("python3 {submission}/'my hw.py'")[1], file);
        assert_eq!(words("python3 \"{submission}/my hw.py\"")[1], file);
        assert_eq!(words("python3 '{submission}/my hw.py'")[1], file);
    }

    #[test]
    fn a_submission_one_folder_down_is_found() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("hw1")).unwrap();
        fs::write(dir.path().join("hw1/hw.py"), "").unwrap();
        assert_eq!(
            locate("python3 {submission}/hw.py", dir.path()),
            Ok(dir.path().join("hw1"))
        );
        fs::create_dir_all(dir.path().join("hw2")).unwrap();
        fs::write(dir.path().join("hw2/hw.py"), "").unwrap();
        assert_eq!(
            locate("python3 {submission}/hw.py", dir.path()),
            Err("hw.py".into())
        );
    }
}
