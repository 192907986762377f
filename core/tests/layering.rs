//! The core's layering, enforced (see "Layers" in the crate's documentation, `src/lib.rs`).
//!
//! Reads `core/src`, finds every `crate::...` path (in `use` lines and inline) of each
//! top-level module, outside comments and unit-test modules, and fails on an edge from a
//! module to one in the same or a higher layer. Items the crate root re-exports
//! (`crate::Runtime`) count as their module.
//!
//! Edges that the untangling has not removed yet are listed in `KNOWN`: a new forbidden
//! edge fails, and so does a listed edge that no longer exists, so the list only shrinks.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The layers, lowest first. A module may use modules of lower layers only.
const LAYERS: &[&[&str]] = &[
    &["error", "clock", "hash"],
    &["env"],
    &["config", "topology"],
    &["memory"],
    &["worker"],
    &["perfmodel"],
    &["data"],
    &["task"],
    &["bound"],
    &["profiling", "counters", "trace"],
    &["sched", "knobs"],
    &["parallel"],
    &["drivers"],
    &["runtime"],
];

/// Forbidden edges that still exist, to be removed (by a trait defined in the lower module
/// and implemented above, or by moving the state or the method to the layer that owns it).
/// Remove a line when its edge is gone: the test then insists.
const KNOWN: &[(&str, &str)] = &[
    // An application's policy (`custom_policy`, a `sched::PolicyFactory` making a `Policy`
    // over `Worker`s) is part of `Config`; the type cannot move down: the runtime's start
    // should take it beside the configuration (a change of the faces' init).
    ("config", "sched"),
    // Performance counters sample the runtime's workers and counters.
    ("counters", "runtime"),
    // Handles still hold tasks and codelets: implicit dependencies, commute gates and
    // acquisitions hold `TaskRef`s, reduction methods are codelets, and a contribution's
    // initialisation runs its codelet inline (`task::reduction::run_inline`).
    ("data", "task"),
    // The models' cost functions (public, filled by every face) take a `TaskSpec`, and
    // codelets hold models; footprints and records read the spec's accesses. The data is
    // read through `perfmodel::ModelData` already; the task would need the same.
    ("perfmodel", "task"),
    // Knobs read the runtime's state instead of a view trait.
    ("knobs", "runtime"),
    // Tasks call up into the runtime: submission (builders, acquisitions, partition
    // switches, regeneration), completion's bookkeeping (bells, counts, failures, tags,
    // watchdog, trace), and transactions, which compose the runtime's API. A trait the
    // runtime implements (as `sched::contexts::ContextHost`) would remove it.
    ("task", "runtime"),
];

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `path` (or `path` itself), but unit-test files.
fn rust_files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<_> = fs::read_dir(path)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            rust_files(&p, out);
        }
    } else if path.extension().is_some_and(|e| e == "rs")
        && path.file_name().is_some_and(|n| n != "tests.rs")
    {
        out.push(path.to_owned());
    }
}

/// `src` without comments (line and block), string contents, and `#[cfg(test)] mod x { ... }` blocks.
fn code_of(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut rest = src;
    while !rest.is_empty() {
        if rest.starts_with("//") {
            rest = &rest[rest.find('\n').unwrap_or(rest.len())..];
        } else if rest.starts_with("/*") {
            rest = &rest[rest.find("*/").map_or(rest.len(), |i| i + 2)..];
        } else if rest.starts_with("'\"'") || rest.starts_with("'\\\"'") {
            // A quote as a character starts no string.
            let end = rest[1..].find('\'').unwrap() + 2;
            out.push_str(&rest[..end]);
            rest = &rest[end..];
        } else if let Some(raw) = rest.strip_prefix("r#\"") {
            rest = &raw[raw.find("\"#").map_or(raw.len(), |i| i + 2)..];
            out.push_str("\"\"");
        } else if rest.starts_with('"') {
            // String contents are dropped (a "//" or a path inside one is no code).
            let b = rest.as_bytes();
            let mut end = 1;
            while end < b.len() && b[end] != b'"' {
                end += if b[end] == b'\\' { 2 } else { 1 };
            }
            rest = &rest[(end + 1).min(rest.len())..];
            out.push_str("\"\"");
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    strip_test_modules(&out)
}

fn strip_test_modules(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = rest[at + "#[cfg(test)]".len()..].trim_start();
        let block = after
            .find(['{', ';'])
            .filter(|&i| after[i..].starts_with('{'));
        if let Some(open) = block.filter(|_| after.starts_with("mod ")) {
            let mut depth = 0;
            let mut end = after.len();
            for (i, c) in after[open..].char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            end = open + i + 1;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            rest = &after[end..];
        } else {
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

fn ident_at(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The first segment of each path that follows `crate::` in `code`, groups included
/// (`crate::{a::X, b}` gives `a` and `b`).
fn crate_paths(code: &str) -> Vec<&str> {
    let mut names = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        // `starpu_core::` or `some_crate::` are other paths.
        if code[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
        {
            continue;
        }
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut start = true;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if start && !c.is_whitespace() => {
                        names.push(ident_at(&group[i..]));
                        start = false;
                    }
                    _ => {}
                }
            }
        } else {
            names.push(ident_at(rest));
        }
    }
    names
}

/// Items the crate root re-exports, by name: the module they come from.
fn root_reexports() -> BTreeMap<String, String> {
    let lib = code_of(&fs::read_to_string(src_dir().join("lib.rs")).unwrap());
    let mut map = BTreeMap::new();
    for stmt in lib.split(';') {
        let Some(path) = stmt.trim().strip_prefix("pub use ") else {
            continue;
        };
        let module = ident_at(path);
        let items = path[module.len()..].trim_start_matches("::");
        for item in items.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            if !item.is_empty() {
                map.insert(item.to_owned(), module.to_owned());
            }
        }
    }
    map
}

/// Edges between top-level modules: (from, to) -> the files that make it.
fn edges() -> BTreeMap<(String, String), BTreeSet<String>> {
    let modules: BTreeSet<&str> = LAYERS.iter().flat_map(|l| l.iter().copied()).collect();
    let reexports = root_reexports();
    let mut edges: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    for from in &modules {
        // A module is `x/` (with `x/mod.rs`), `x.rs`, or both (`x.rs` with submodules in
        // `x/`).
        let mut files = Vec::new();
        for path in [src_dir().join(from), src_dir().join(format!("{from}.rs"))] {
            if path.exists() {
                rust_files(&path, &mut files);
            }
        }
        for f in files {
            let code = code_of(&fs::read_to_string(&f).unwrap());
            for name in crate_paths(&code) {
                let to = match reexports.get(name) {
                    Some(m) => m.as_str(),
                    None => name,
                };
                if to != *from && modules.contains(to) {
                    let file = f.strip_prefix(src_dir()).unwrap().display().to_string();
                    edges
                        .entry((from.to_string(), to.to_owned()))
                        .or_default()
                        .insert(file);
                }
            }
        }
    }
    edges
}

fn layer_of(module: &str) -> usize {
    LAYERS.iter().position(|l| l.contains(&module)).unwrap()
}

#[test]
fn every_top_level_module_has_a_layer() {
    let mut missing = Vec::new();
    for e in fs::read_dir(src_dir()).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        let module = name.trim_end_matches(".rs");
        if module != "lib" && !LAYERS.iter().any(|l| l.contains(&module)) {
            missing.push(module.to_owned());
        }
    }
    assert!(
        missing.is_empty(),
        "top-level modules without a layer in LAYERS: {missing:?}"
    );
}

#[test]
fn modules_use_lower_layers_only() {
    let edges = edges();
    let forbidden: BTreeMap<_, _> = edges
        .iter()
        .filter(|((from, to), _)| layer_of(to) >= layer_of(from))
        .collect();
    let new: Vec<String> = forbidden
        .iter()
        .filter(|((from, to), _)| !KNOWN.contains(&(from.as_str(), to.as_str())))
        .map(|((from, to), files)| format!("{from} -> {to} (in {files:?})"))
        .collect();
    let gone: Vec<String> = KNOWN
        .iter()
        .filter(|(from, to)| !forbidden.contains_key(&(from.to_string(), to.to_string())))
        .map(|(from, to)| format!("{from} -> {to}"))
        .collect();
    assert!(
        new.is_empty(),
        "forbidden edges (a module may use lower layers only):\n  {}",
        new.join("\n  ")
    );
    assert!(
        gone.is_empty(),
        "edges in KNOWN that no longer exist (take them off the list):\n  {}",
        gone.join("\n  ")
    );
}

#[test]
fn the_parser_sees_groups_reexports_and_skips_comments_and_tests() {
    let code = code_of(
        "use crate::{a::X, b::{Y, Z}, c};\n// crate::d\nlet s = \"// crate::e\";\n\
         let q = '\"'; let r = r#\"crate::k\"#; x = crate::f::g();\nstarpu_core::h::i();\n#[cfg(test)]\nmod tests { use crate::j; }\n",
    );
    assert_eq!(crate_paths(&code), ["a", "b", "c", "f"]);
    let reexports = root_reexports();
    assert_eq!(
        reexports.get("Runtime").map(String::as_str),
        Some("runtime")
    );
    assert_eq!(
        reexports.get("DataHandle").map(String::as_str),
        Some("data")
    );
}
