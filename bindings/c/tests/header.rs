//! `starpu.h` is committed (`include/generated/starpu.h`) so that a change to the C ABI
//! shows in review as a change to the header programs compile against. This test fails
//! when the header build.rs generates from the Rust definitions differs from the committed
//! one; `STARPU_BLESS_HEADERS=1 cargo test -p starpu-c --test header` refreshes it.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The headers build.rs generates (the others in include/ are written by hand, and
/// starpu_config.h says what one build found: it is not the same everywhere).
const GENERATED: &[&str] = &["starpu.h"];

fn committed(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("include/generated")
        .join(name)
}

fn fresh(name: &str) -> PathBuf {
    Path::new(env!("OUT_DIR")).join("include").join(name)
}

/// What differs, as `diff -u` shows it (or the first differing line where there is no
/// `diff`).
fn difference(old: &Path, new: &Path, old_text: &str, new_text: &str) -> String {
    if let Ok(out) = Command::new("diff").arg("-u").arg(old).arg(new).output() {
        if !out.stdout.is_empty() {
            return String::from_utf8_lossy(&out.stdout).into_owned();
        }
    }
    let line = old_text
        .lines()
        .zip(new_text.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| old_text.lines().count().min(new_text.lines().count()));
    format!("first difference at line {}", line + 1)
}

#[test]
fn committed_headers_match_the_generated_ones() {
    let bless = std::env::var_os("STARPU_BLESS_HEADERS").is_some_and(|v| v != "0");
    let mut drifted = Vec::new();
    for name in GENERATED {
        let (old, new) = (committed(name), fresh(name));
        let new_text = std::fs::read_to_string(&new)
            .unwrap_or_else(|e| panic!("{}: {e} (build.rs makes it)", new.display()));
        let old_text = std::fs::read_to_string(&old).unwrap_or_default();
        if old_text == new_text {
            continue;
        }
        if bless {
            std::fs::create_dir_all(old.parent().unwrap()).unwrap();
            std::fs::write(&old, &new_text).unwrap();
            eprintln!("refreshed {}", old.display());
        } else {
            drifted.push(format!(
                "{} differs from the generated header:\n{}",
                old.display(),
                difference(&old, &new, &old_text, &new_text)
            ));
        }
    }
    assert!(
        drifted.is_empty(),
        "{}\nThe C ABI changed: review the difference, then refresh the committed header with\n    \
         STARPU_BLESS_HEADERS=1 cargo test -p starpu-c --test header",
        drifted.join("\n")
    );
}
