//! The README's Bevy/crate version table matches Cargo.toml (as bevy_egui's
//! `test_readme_deps` does), so a dependency bump cannot leave it stale.

use std::fs;
use std::path::Path;

fn read(file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `major.minor` of the version requirement of dependency `name` in Cargo.toml.
fn dependency_version(manifest: &str, name: &str) -> String {
    let line = manifest
        .lines()
        .find(|l| l.starts_with(&format!("{name} = {{")))
        .unwrap_or_else(|| panic!("{name} is not a dependency"));
    let start = line.find("version = \"").map(|i| i + "version = \"".len()).expect("a version");
    let version = &line[start..];
    version[..version.find('"').expect("closing quote")].to_string()
}

#[test]
fn the_readme_version_table_matches_cargo_toml() {
    let (readme, manifest) = (read("README.md"), read("Cargo.toml"));
    let header = "| bevy | bevy_egui | bevy_sandbox_physics |";
    let mut lines = readme.lines().skip_while(|l| *l != header).skip(2);
    let row = lines.next().expect("the README has the version table");
    let cells: Vec<&str> = row.split('|').map(str::trim).filter(|c| !c.is_empty()).collect();

    let crate_version = env!("CARGO_PKG_VERSION");
    let crate_minor = crate_version.rsplit_once('.').map_or(crate_version, |(minor, _)| minor);
    let expected =
        [dependency_version(&manifest, "bevy"), dependency_version(&manifest, "bevy_egui")];
    assert_eq!(cells, [expected[0].as_str(), expected[1].as_str(), crate_minor], "{row}");
}
