//! The core's modules depend on each other in one direction (issue 16): no import cycle
//! between the top-level modules of `src/physics` (body, collision, config, solver, world,
//! …), nor between the files of one folder. Read from the `use` lines of the sources;
//! doc-link and test-only imports do not count.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            sources(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

/// The module path of a source file relative to src/physics: `solver/contact`,
/// `world` for `world/mod.rs`, `` for the root.
fn module_of(root: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(root).expect("under the root").with_extension("");
    let parts: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let parts = match parts.last().map(String::as_str) {
        Some("mod") => &parts[..parts.len() - 1],
        _ => &parts[..],
    };
    parts.join("/")
}

/// The modules a file imports, as module paths, from its non-test, non-doc `use` lines.
fn imports(module: &str, source: &str, known: &BTreeSet<String>) -> BTreeSet<String> {
    let source = source.split("#[cfg(test)]\nmod tests").next().unwrap_or(source);
    let parent = module.rsplit_once('/').map_or("", |(p, _)| p);
    let mut found = BTreeSet::new();
    let mut skip_next = false;
    for line in source.lines().map(str::trim) {
        if line.starts_with("#[cfg(doc)]") || line.starts_with("#[cfg(test)]") {
            skip_next = true;
            continue;
        }
        let Some(path) = line.strip_prefix("use ").or_else(|| line.strip_prefix("pub(crate) use "))
        else {
            skip_next = false;
            continue;
        };
        if std::mem::take(&mut skip_next) {
            continue;
        }
        let target = if let Some(rest) = path.strip_prefix("crate::physics::") {
            rest.split("::").next().unwrap_or("").to_string()
        } else if let Some(rest) = path.strip_prefix("super::") {
            let name = rest.split(&[':', ';', '{', ' '][..]).next().unwrap_or("");
            let sibling =
                if parent.is_empty() { name.to_string() } else { format!("{parent}/{name}") };
            if known.contains(&sibling) { sibling } else { parent.to_string() }
        } else {
            continue;
        };
        let target = target.trim_end_matches(';').to_string();
        if target != module && known.contains(&target) {
            found.insert(target);
        }
    }
    found
}

/// A cycle in `graph`, if there is one.
fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match state.get(node) {
            Some(1) => return Some(path.clone()),
            Some(2) => return None,
            _ => {}
        }
        state.insert(node.to_string(), 1);
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(found) = visit(next, graph, state, path) {
                return Some(found);
            }
        }
        path.pop();
        state.insert(node.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    graph.keys().find_map(|node| visit(node, graph, &mut state, &mut Vec::new()))
}

#[test]
fn the_core_has_no_import_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/physics");
    let mut files = Vec::new();
    sources(&root, &mut files);
    let modules: BTreeMap<String, String> = files
        .iter()
        .map(|f| (module_of(&root, f), fs::read_to_string(f).expect("readable")))
        .collect();
    let known: BTreeSet<String> = modules.keys().cloned().collect();
    // Top level: each module counts as its first path segment (`solver/contact` → `solver`).
    let top = |m: &str| m.split('/').next().unwrap_or("").to_string();
    let mut top_graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    // Within a folder: the files of one folder among themselves.
    let mut folder_graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, source) in &modules {
        for target in imports(module, source, &known) {
            if top(module) != top(&target) {
                top_graph.entry(top(module)).or_default().insert(top(&target));
            }
            let parent = |m: &str| m.rsplit_once('/').map(|(p, _)| p.to_string());
            if parent(module).is_some() && parent(module) == parent(&target) {
                folder_graph.entry(module.clone()).or_default().insert(target);
            }
        }
    }
    assert!(top_graph.contains_key("world"), "the graph was read: {top_graph:?}");
    assert_eq!(cycle(&top_graph), None, "a cycle between the core's modules: {top_graph:?}");
    assert_eq!(
        cycle(&folder_graph),
        None,
        "a cycle between the files of a folder: {folder_graph:?}"
    );
}

/// The cycle finder finds a cycle: the test above is not vacuous.
#[test]
fn the_cycle_finder_finds_a_cycle() {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    graph.entry("a".into()).or_default().insert("b".into());
    graph.entry("b".into()).or_default().insert("c".into());
    assert_eq!(cycle(&graph), None);
    graph.entry("c".into()).or_default().insert("a".into());
    assert!(cycle(&graph).is_some());
}
