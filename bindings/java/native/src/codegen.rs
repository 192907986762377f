//! The Java sources made from the core's lists, so that Java never types them again: one
//! exception class per `ErrorKind` (with the `ErrorKind` enum they share) and the constants
//! of `DataHandle.AccessMode` (from `AccessMode::NAMED`).
//!
//! The sources are committed (a reader finds them where javac does); the test below renders
//! them from the core and fails when a committed file differs. After a change in the core,
//! `STARPU_JAVA_REGENERATE=1 cargo test -p starpu-java codegen` writes them again.

use starpu_core::{AccessMode, ErrorKind};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const PACKAGE_DIR: &str = "src/main/java/fr/labri/hpccloud/starpu";
const HEADER: &str =
    "// Generated from starpu-core by bindings/java/native/src/codegen.rs: do not edit.\n\
// After a change in the core: STARPU_JAVA_REGENERATE=1 cargo test -p starpu-java codegen\n";
/// The lines of `DataHandle.java` between these are generated.
const MODES_BEGIN: &str =
    "\t\t// BEGIN generated from starpu-core's AccessMode::NAMED (codegen.rs)\n";
const MODES_END: &str = "\t\t// END generated\n";

/// `InvalidArgument` -> `INVALID_ARGUMENT`.
fn constant_name(kind: ErrorKind) -> String {
    let mut out = String::new();
    for (i, c) in kind.name().chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

/// `ErrorKind.java`: the kinds, their errno, and the exception each one throws.
fn error_kind_java() -> String {
    let mut s = format!("{HEADER}package fr.labri.hpccloud.starpu;\n\n");
    s += concat!(
        "/**\n",
        " * What went wrong, in the runtime core's words: each kind has its errno (the code\n",
        " * StarPU's C API returns, negated) and its subclass of {@link StarPUException}.\n",
        " */\n"
    );
    s += "public enum ErrorKind {\n";
    for (i, k) in ErrorKind::ALL.iter().enumerate() {
        let end = if i + 1 == ErrorKind::ALL.len() {
            ';'
        } else {
            ','
        };
        let _ = writeln!(
            s,
            "\t/** {} ({}). */\n\t{}(\"{}\", {}, \"{}\"){end}",
            capitalized(k.summary()),
            k.errno_name(),
            constant_name(*k),
            k.name(),
            k.errno(),
            k.errno_name()
        );
    }
    s += "\n\tprivate final String coreName;\n\tprivate final int errno;\n\tprivate final String errnoName;\n\n";
    s += "\tErrorKind(String coreName, int errno, String errnoName) {\n\t\tthis.coreName = coreName;\n\
\t\tthis.errno = errno;\n\t\tthis.errnoName = errnoName;\n\t}\n\n";
    s += "\t/** The kind's stable name in the core ({@code InvalidArgument}...). */\n\
\tpublic String coreName() {\n\t\treturn coreName;\n\t}\n\n";
    s += "\t/** The positive errno of this kind (StarPU's C API returns its negation). */\n\
\tpublic int errno() {\n\t\treturn errno;\n\t}\n\n";
    s += "\t/** The symbolic name of {@link #errno} ({@code EINVAL}...). */\n\
\tpublic String errnoName() {\n\t\treturn errnoName;\n\t}\n\n";
    s += "\t/** The kind the core calls {@code coreName}, or null. */\n\
\tpublic static ErrorKind named(String coreName) {\n\t\tfor (ErrorKind k : values()) {\n\
\t\t\tif (k.coreName.equals(coreName)) {\n\t\t\t\treturn k;\n\t\t\t}\n\t\t}\n\t\treturn null;\n\t}\n\n";
    s += "\t/** A new exception of this kind's class. */\n\
\tStarPUException exception(String message, Throwable cause, String taskName) {\n\
\t\tswitch (this) {\n";
    for k in ErrorKind::ALL {
        let _ = writeln!(
            s,
            "\t\t\tcase {}:\n\t\t\t\treturn new {}Exception(message, cause, taskName);",
            constant_name(k),
            k.name()
        );
    }
    s += "\t\t\tdefault:\n\t\t\t\tthrow new AssertionError(this);\n\t\t}\n\t}\n}\n";
    s
}

/// `<Kind>Exception.java`.
fn exception_java(kind: ErrorKind) -> String {
    let name = format!("{}Exception", kind.name());
    format!(
        "{HEADER}package fr.labri.hpccloud.starpu;\n\n\
/** {summary}: errno {errno} ({errno_name}), kind {{@link ErrorKind#{constant}}}. */\n\
public class {name} extends StarPUException {{\n\
\tprivate static final long serialVersionUID = 1L;\n\n\
\tpublic {name}(String message) {{\n\t\tthis(message, null, null);\n\t}}\n\n\
\t/** With the exception that caused it (a failed task's) and the task's name (or null). */\n\
\tpublic {name}(String message, Throwable cause, String taskName) {{\n\
\t\tsuper(ErrorKind.{constant}, message, cause, taskName);\n\t}}\n}}\n",
        summary = capitalized(kind.summary()),
        errno = kind.errno(),
        errno_name = kind.errno_name(),
        constant = constant_name(kind),
    )
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// The generated lines of `DataHandle.AccessMode`: one constant per named mode or flag, and
/// the list `values()` returns.
fn access_modes_java() -> String {
    let mut s = String::from(MODES_BEGIN);
    for (name, mode) in AccessMode::NAMED {
        let _ = writeln!(
            s,
            "\t\tpublic static final AccessMode STARPU_{name} = new AccessMode(\"STARPU_{name}\", {});",
            mode.bits()
        );
    }
    let all: Vec<String> = AccessMode::NAMED
        .iter()
        .map(|(n, _)| format!("STARPU_{n}"))
        .collect();
    let _ = writeln!(
        s,
        "\t\tprivate static final AccessMode[] NAMED = {{ {} }};",
        all.join(", ")
    );
    s += MODES_END;
    s
}

/// Every generated file: its path under `bindings/java` and its whole expected content.
fn expected_files(root: &Path) -> Vec<(PathBuf, String)> {
    let dir = root.join(PACKAGE_DIR);
    let mut files = vec![(dir.join("ErrorKind.java"), error_kind_java())];
    for k in ErrorKind::ALL {
        files.push((
            dir.join(format!("{}Exception.java", k.name())),
            exception_java(k),
        ));
    }
    let handle = dir.join("data/DataHandle.java");
    let current = std::fs::read_to_string(&handle).expect("DataHandle.java is readable");
    files.push((handle, with_region(&current, &access_modes_java())));
    files
}

/// `text` with the lines from `MODES_BEGIN` to `MODES_END` replaced by `region`.
fn with_region(text: &str, region: &str) -> String {
    let start = text
        .find(MODES_BEGIN)
        .expect("DataHandle.java has the BEGIN marker");
    let end = text[start..]
        .find(MODES_END)
        .map(|e| start + e + MODES_END.len())
        .expect("DataHandle.java has the END marker");
    format!("{}{region}{}", &text[..start], &text[end..])
}

#[test]
fn codegen_java_sources_match_the_core() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let regenerate = std::env::var_os("STARPU_JAVA_REGENERATE").is_some();
    let mut stale = Vec::new();
    for (path, text) in expected_files(&root) {
        if std::fs::read_to_string(&path).ok().as_deref() == Some(text.as_str()) {
            continue;
        }
        if regenerate {
            std::fs::write(&path, text).expect("the generated file is writable");
        } else {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "generated Java sources differ from the core's lists: {stale:?}; run \
         STARPU_JAVA_REGENERATE=1 cargo test -p starpu-java codegen"
    );
}

/// The `NAME = value` constants of `Native.java`'s `static final int` declarations.
fn java_protocol(text: &str) -> Vec<(String, i64)> {
    let mut out = Vec::new();
    let mut in_decl = false;
    for line in text.lines() {
        in_decl |= line.contains("static final int");
        if !in_decl {
            continue;
        }
        for part in line.split(',') {
            let part = part.trim().trim_end_matches(';');
            let name_value = part.rsplit("int ").next().unwrap_or(part);
            if let Some((name, value)) = name_value.split_once(" = ") {
                if let Ok(v) = value.trim().parse() {
                    out.push((name.trim().to_string(), v));
                }
            }
        }
        in_decl &= !line.trim_end().ends_with(';');
    }
    out
}

#[test]
fn codegen_native_java_and_protocol_rs_agree() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../")
        .join(PACKAGE_DIR)
        .join("internal/Native.java");
    let text = std::fs::read_to_string(path).expect("Native.java is readable");
    let mut java = java_protocol(&text);
    java.sort();
    let mut rust: Vec<(String, i64)> = crate::protocol::ALL
        .iter()
        .map(|(n, v)| (n.to_string(), *v))
        .collect();
    rust.sort();
    assert_eq!(
        java, rust,
        "Native.java's constants differ from protocol.rs"
    );
}

#[test]
fn constant_names_are_java_style() {
    assert_eq!(
        constant_name(ErrorKind::InvalidArgument),
        "INVALID_ARGUMENT"
    );
    assert_eq!(constant_name(ErrorKind::Timeout), "TIMEOUT");
    assert!(access_modes_java().contains("STARPU_COMMUTE = new AccessMode(\"STARPU_COMMUTE\", 16)"));
}
