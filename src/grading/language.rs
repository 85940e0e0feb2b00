//! The languages of the handout: a submission is graded by what it holds. A Python
//! program (the file the handout names, `hw1cs561s2017.py`) runs with python2 or
//! python3, as its `#!` line or the grader's choice says; Java sources (`*.java`)
//! are compiled once with javac, C++ sources (`*.cpp`) once with `g++ -O2`, each
//! build in the sandbox with its own wall time, and the build is then what every
//! case runs. A program one folder down (`hw1/agent.java`) is found too.

use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use thiserror::Error;

use crate::printable::printable;
use crate::sandbox::{BuildFolder, Ending, OutputFile, Program, Sandbox};

/// A language of the handout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// Python 2.
    Python2,
    /// Python 3.
    Python3,
    /// Java, compiled with javac.
    Java,
    /// C++, compiled with g++ -O2.
    Cpp,
}

impl Language {
    /// Whether its programs are built before they run (Java, C++).
    pub fn built(self) -> bool {
        matches!(self, Language::Java | Language::Cpp)
    }

    /// The language's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Language::Python2 => "Python 2",
            Language::Python3 => "Python 3",
            Language::Java => "Java",
            Language::Cpp => "C++",
        }
    }
}

/// How each language's programs are built and run.
#[derive(Clone, Debug)]
pub struct Toolchain {
    /// The Python file the handout names.
    pub python_file: String,
    /// The Python of a program whose `#!` line names neither python2 nor python3.
    pub default_python: Language,
    /// The python2 interpreter (a name on the programs' `PATH`, or a full path).
    pub python2: String,
    /// The python3 interpreter.
    pub python3: String,
    /// Wall time of a build.
    pub build_time: Duration,
}

impl Default for Toolchain {
    fn default() -> Toolchain {
        Toolchain {
            python_file: "hw1cs561s2017.py".into(),
            default_python: Language::Python3,
            python2: "python2".into(),
            python3: "python3".into(),
            build_time: Duration::from_secs(60),
        }
    }
}

impl Toolchain {
    /// What a submission holds that this toolchain grades, in words.
    pub fn wanted(&self) -> String {
        format!("{}, *.java or *.cpp", self.python_file)
    }

    /// The programs the runs and builds of `language` start, each to be found and
    /// seen in the sandbox.
    pub fn programs(&self, language: Language) -> Vec<String> {
        match language {
            Language::Python2 => vec![self.python2.clone()],
            Language::Python3 => vec![self.python3.clone()],
            Language::Java => vec!["javac".into(), "jar".into(), "java".into()],
            Language::Cpp => vec!["g++".into()],
        }
    }
}

/// A program found in a submission.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// Its language.
    pub language: Language,
    /// The folder that holds it (the submission's, or one below it).
    pub folder: PathBuf,
    /// Its main file (the Python file, the Java file with `main`, a C++ file).
    pub file: PathBuf,
    /// The main file's path under the submission's folder, for the reports.
    pub relative: String,
    /// Java's main class (the main file's name).
    pub main_class: String,
}

impl Found {
    /// Where the program was found and what it is, for the reports.
    pub fn description(&self) -> String {
        let below = if self.relative.contains('/') {
            ", one folder down"
        } else {
            ""
        };
        format!("{} ({}{below})", self.relative, self.language.name())
    }
}

/// The program of the submission `folder`: in it, else in one of its folders (in
/// name order); `None` when there is none.
pub fn find(folder: &Path, toolchain: &Toolchain) -> Option<Found> {
    if let Some(found) = find_in(folder, folder, toolchain) {
        return Some(found);
    }
    let mut below: Vec<PathBuf> = fs::read_dir(folder)
        .ok()?
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            !name.starts_with('.') && name != "__MACOSX"
        })
        .map(|e| e.path())
        .collect();
    below.sort();
    below
        .iter()
        .find_map(|inner| find_in(folder, inner, toolchain))
}

/// The regular files of `folder` whose names end with `extension`, in name order.
fn files_ending(folder: &Path, extension: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(folder)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == extension))
        .collect();
    files.sort();
    files
}

fn find_in(submission: &Path, folder: &Path, toolchain: &Toolchain) -> Option<Found> {
    let found = |language, file: PathBuf, main_class: String| {
        let relative = file
            .strip_prefix(submission)
            .unwrap_or(&file)
            .to_string_lossy()
            .into_owned();
        Found {
            language,
            folder: folder.to_path_buf(),
            file,
            relative,
            main_class,
        }
    };
    let python = folder.join(&toolchain.python_file);
    if python.is_file() {
        let first = read_prefix(&python, SHEBANG_BYTES).unwrap_or_default();
        let first = first.split(|&b| b == b'\n').next().unwrap_or_default();
        let language = if !first.starts_with(b"#!") {
            toolchain.default_python
        } else if contains(first, b"python3") {
            Language::Python3
        } else if contains(first, b"python2") {
            Language::Python2
        } else {
            toolchain.default_python
        };
        return Some(found(language, python, String::new()));
    }
    let java = files_ending(folder, "java");
    if !java.is_empty() {
        let mut left = MAIN_SEARCH_BYTES;
        let main = java
            .iter()
            .find(|file| {
                file_contains(file, b"static void main", MAIN_FILE_BYTES, &mut left)
                    .unwrap_or(false)
            })
            .unwrap_or(&java[0])
            .clone();
        let class = main
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        return Some(found(Language::Java, main, class));
    }
    let cpp = files_ending(folder, "cpp");
    cpp.first()
        .map(|file| found(Language::Cpp, file.clone(), String::new()))
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Bytes of a Python file read to find its `#!` line.
const SHEBANG_BYTES: u64 = 4 << 10;
/// Bytes of each Java file read to find `static void main`.
const MAIN_FILE_BYTES: u64 = 256 << 10;
/// Bytes of a submission's Java files read in all to find `static void main`.
const MAIN_SEARCH_BYTES: u64 = 1 << 20;
/// The buffer of the streamed search.
const CHUNK_BYTES: usize = 8 << 10;

/// A student's file opened for the grader to read: never blocking on a FIFO, and a
/// regular file only.
fn open_regular(path: &Path) -> io::Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    Ok(file)
}

/// The first `max` bytes of the student's file `path` (at most).
fn read_prefix(path: &Path, max: u64) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    open_regular(path)?.take(max).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Whether the first `max` bytes of the student's file `path` hold `needle`, read
/// a chunk at a time, taking what it reads from `left` (and reading no more once
/// `left` is spent): the grader never holds more than a chunk of the file.
fn file_contains(path: &Path, needle: &[u8], max: u64, left: &mut u64) -> io::Result<bool> {
    use std::io::Read;
    let mut file = open_regular(path)?.take(max.min(*left));
    let mut window: Vec<u8> = Vec::with_capacity(CHUNK_BYTES + needle.len());
    let mut chunk = vec![0; CHUNK_BYTES];
    loop {
        let read = file.read(&mut chunk)?;
        if read == 0 {
            return Ok(false);
        }
        *left = left.saturating_sub(read as u64);
        window.extend_from_slice(&chunk[..read]);
        if contains(&window, needle) {
            return Ok(true);
        }
        // Keep what could begin the needle across the chunks.
        let keep = window.len().min(needle.len().saturating_sub(1));
        window.drain(..window.len() - keep);
    }
}

/// Quotes `text` for a POSIX shell.
pub fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// A program ready to run: its command, and the build it runs from (removed when
/// this is dropped).
#[derive(Debug)]
pub struct Built {
    /// The shell command every case runs.
    pub command: String,
    /// The folder of the build, to show to the runs read-only.
    pub build: Option<BuildFolder>,
}

/// A build that failed.
#[derive(Debug, Error)]
pub enum BuildError {
    /// The compiler refused the program, or ran out of its limits.
    #[error("{0}")]
    Compile(String),
    /// The grading's time budget ended while the build ran (it was killed).
    #[error("not run: the grading's time budget ended during the program's build")]
    Budget,
    /// The grader could not run the build or keep what it made.
    #[error("cannot build the program: {0}")]
    Io(#[from] io::Error),
}

/// Lines of a compiler's standard error in a COMPILE ERROR row.
const ERROR_LINES: usize = 5;

/// Whether `name` may be Java's main class: a Java identifier (a letter, `_` or `$`,
/// then letters, digits, `_` or `$`). Nothing else reaches the `java` launcher,
/// which would read `@name` as a file of arguments and `-name` as an option.
pub fn java_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// Builds `found` in `sandbox` (which shows the submission), within the toolchain's
/// build time: nothing to build for Python; javac then jar for Java; g++ -O2 for
/// C++. What the build makes is copied from its work folder into a fresh folder
/// others may read, from which every case runs.
///
/// No file name of the student's reaches a program as an option: javac and g++ get
/// the sources by absolute path (every word starts with `/`; neither knows `--`),
/// Python gets its file after `--`, and a Java main class that is not a Java
/// identifier is a compile error.
pub fn build(found: &Found, toolchain: &Toolchain, sandbox: &Sandbox) -> Result<Built, BuildError> {
    if !found.folder.is_absolute() {
        return Err(BuildError::Io(io::Error::other(format!(
            "{}: the submission's folder must be an absolute path",
            printable(&found.folder.display().to_string())
        ))));
    }
    if found.language == Language::Java && !java_identifier(&found.main_class) {
        return Err(BuildError::Compile(format!(
            "the main class {} (from {}) is not a valid Java identifier: not compiled",
            printable(&found.main_class),
            printable(&found.relative)
        )));
    }
    let file = shell_quote(&found.file.display().to_string());
    let (script, made, mode) = match found.language {
        Language::Python2 | Language::Python3 => {
            let python = if found.language == Language::Python2 {
                &toolchain.python2
            } else {
                &toolchain.python3
            };
            return Ok(Built {
                command: format!("{} -- {file}", shell_quote(python)),
                build: None,
            });
        }
        Language::Java => (
            "mkdir classes && javac -encoding UTF-8 -d classes \"$1\"/*.java && \
             jar cf prog.jar -C classes .",
            "prog.jar",
            0o644,
        ),
        Language::Cpp => ("g++ -O2 -o prog \"$1\"/*.cpp", "prog", 0o755),
    };
    let builder = sandbox.with_wall(toolchain.build_time);
    let folder = found.folder.display().to_string();
    let run = builder.run(&Program {
        command: script,
        args: &[folder],
        files: &[],
    })?;
    let errors = || run.stderr.shown(ERROR_LINES, ": ");
    match run.ending {
        Ending::Exited(0) => {}
        Ending::Exited(code) => {
            return Err(BuildError::Compile(format!(
                "the build failed (exit status {code}){}",
                errors()
            )))
        }
        Ending::WallTime | Ending::CpuTime => {
            return Err(BuildError::Compile(format!(
                "the build was still running after {} s: killed",
                toolchain.build_time.as_secs_f64()
            )))
        }
        Ending::Signal(signal) => {
            return Err(BuildError::Compile(format!(
                "the build was killed by signal {signal}{}",
                errors()
            )))
        }
        Ending::Stopped => return Err(BuildError::Compile("the build was interrupted".into())),
        Ending::Deadline => return Err(BuildError::Budget),
        Ending::FilesTooLarge => {}
    }
    if run.files_full {
        return Err(BuildError::Compile(format!(
            "the build's files passed {} MiB in all (--file-size): killed",
            sandbox.limits().file_size >> 20
        )));
    }
    let bytes = match run.read_output(made, sandbox.limits().file_size)? {
        OutputFile::Regular(bytes) => bytes,
        _ => {
            return Err(BuildError::Compile(format!(
                "the build made no {made}{}",
                errors()
            )))
        }
    };
    let build = BuildFolder::new()?;
    let program = build.path().join(made);
    fs::write(&program, bytes)?;
    fs::set_permissions(&program, fs::Permissions::from_mode(mode))?;
    let program = shell_quote(&program.display().to_string());
    let command = match found.language {
        Language::Java => format!("java -cp {program} {}", shell_quote(&found.main_class)),
        _ => program,
    };
    Ok(Built {
        command,
        build: Some(build),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_submission_is_graded_by_what_it_holds() {
        let toolchain = Toolchain::default();
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        assert_eq!(find(root, &toolchain), None);
        fs::create_dir(root.join("hw1")).unwrap();
        fs::write(root.join("hw1/Helper.java"), "class Helper {}").unwrap();
        fs::write(
            root.join("hw1/agent.java"),
            "class agent { public static void main(String[] a) {} }",
        )
        .unwrap();
        let java = find(root, &toolchain).unwrap();
        assert_eq!(java.language, Language::Java);
        assert_eq!(java.relative, "hw1/agent.java");
        assert_eq!(java.main_class, "agent");
        assert_eq!(java.description(), "hw1/agent.java (Java, one folder down)");
        fs::write(root.join("hw1cs561s2017.py"), "#!/usr/bin/env python2\n").unwrap();
        let python = find(root, &toolchain).unwrap();
        assert_eq!(python.language, Language::Python2);
        assert_eq!(python.relative, "hw1cs561s2017.py");
        fs::write(root.join("hw1cs561s2017.py"), "print 1\n").unwrap();
        assert_eq!(find(root, &toolchain).unwrap().language, Language::Python3);
    }

    #[test]
    fn the_search_for_main_is_streamed_and_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("A.java");
        let needle = b"static void main";
        // Across the chunks' edge.
        let mut text = vec![b' '; CHUNK_BYTES - 5];
        text.extend_from_slice(needle);
        fs::write(&file, &text).unwrap();
        let mut left = u64::MAX;
        assert!(file_contains(&file, needle, 1 << 20, &mut left).unwrap());
        // Past the bound of the file, or of the search.
        assert!(!file_contains(&file, needle, CHUNK_BYTES as u64, &mut left).unwrap());
        let mut spent = 100;
        assert!(!file_contains(&file, needle, 1 << 20, &mut spent).unwrap());
        assert_eq!(spent, 0);
        assert_eq!(read_prefix(&file, 10).unwrap().len(), 10);
    }

    #[test]
    fn a_main_class_is_a_java_identifier() {
        for good in ["agent", "Hw1", "_x", "$a1", "Élève"] {
            assert!(java_identifier(good), "{good}");
        }
        for bad in ["", "@input.txt", "-cp", "1a", "a.b", "a b", "a-b"] {
            assert!(!java_identifier(bad), "{bad}");
        }
    }
}
