//! `xpgn.yaml`: rule selection, severities, the default variant and per-path overrides,
//! found upward from each linted file as ruff finds its configuration.
//!
//! ```yaml
//! select: [all]                 # codes, or all (the default)
//! ignore: [missing-roster-tag]
//! severity:
//!   non-canonical-castling: error
//! variant: chess960             # for games without a [Variant] tag
//! overrides:
//!   - files: ["forum/**/*.txt"] # globs relative to this file's folder
//!     ignore: [wrong-move-number]
//! ```

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};
use serde::Deserialize;

use super::{Selection, codes};
use crate::diagnostic::{Code, Severity};

/// The names xpgn looks for, in each folder from the file's upward.
pub const FILE_NAMES: [&str; 2] = ["xpgn.yaml", ".xpgn.yaml"];

/// The rule fields, as both the file and each override hold them.
#[derive(Debug, Default)]
struct RulesFile {
    select: Option<Vec<String>>,
    ignore: Vec<String>,
    severity: BTreeMap<String, SeverityName>,
}

// Written out rather than flattened: serde refuses unknown fields only without flatten,
// and a misspelt key must be an error, not a rule silently not applied.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    select: Option<Vec<String>>,
    #[serde(default)]
    ignore: Vec<String>,
    #[serde(default)]
    severity: BTreeMap<String, SeverityName>,
    variant: Option<String>,
    #[serde(default)]
    overrides: Vec<OverrideFile>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct OverrideFile {
    files: Vec<String>,
    select: Option<Vec<String>>,
    #[serde(default)]
    ignore: Vec<String>,
    #[serde(default)]
    severity: BTreeMap<String, SeverityName>,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
enum SeverityName {
    Error,
    Warning,
}

/// One level of rules: the file's own, or an override's.
#[derive(Clone, Debug, Default)]
struct Rules {
    select: Option<HashSet<Code>>,
    ignore: HashSet<Code>,
    severity: HashMap<Code, Severity>,
}

impl Rules {
    fn read(file: RulesFile) -> Result<Rules, String> {
        let select = file.select.as_deref().map(codes).transpose()?;
        let ignore = codes(&file.ignore)?;
        let mut severity = HashMap::new();
        for (name, level) in file.severity {
            let level = match level {
                SeverityName::Error => Severity::Error,
                SeverityName::Warning => Severity::Warning,
            };
            for code in codes(&[name])? {
                severity.insert(code, level);
            }
        }
        Ok(Rules {
            select,
            ignore,
            severity,
        })
    }

    /// These rules on top of `selection`: a `select` replaces, `ignore` and `severity` add.
    fn apply(&self, selection: &mut Selection) {
        if let Some(select) = &self.select {
            selection.select = Some(select.clone());
        }
        selection.ignore.extend(&self.ignore);
        selection
            .severity
            .extend(self.severity.iter().map(|(c, s)| (*c, *s)));
    }
}

/// A configuration file, read.
#[derive(Debug)]
pub struct Config {
    pub path: PathBuf,
    /// The folder override globs are relative to.
    folder: PathBuf,
    rules: Rules,
    pub variant: Option<String>,
    overrides: Vec<(GlobSet, Rules)>,
}

impl Config {
    /// Reads the configuration file at `path`; the error says what is wrong, with the file.
    pub fn load(path: &Path) -> Result<Config, String> {
        let name = path.display();
        let text = crate::source::read_settings_file(path).map_err(|e| format!("{name}: {e}"))?;
        let file: ConfigFile = if text.trim().is_empty() {
            ConfigFile::default()
        } else {
            serde_saphyr::from_str(&text).map_err(|e| yaml_error(path, &e))?
        };
        let rules = Rules::read(RulesFile {
            select: file.select,
            ignore: file.ignore,
            severity: file.severity,
        })
        .map_err(|e| format!("{name}: {e}"))?;
        let mut overrides = Vec::new();
        for entry in file.overrides {
            let mut globs = GlobSetBuilder::new();
            for pattern in &entry.files {
                let glob = Glob::new(pattern).map_err(|e| format!("{name}: {e}"))?;
                globs.add(glob);
            }
            let globs = globs.build().map_err(|e| format!("{name}: {e}"))?;
            let rules = Rules::read(RulesFile {
                select: entry.select,
                ignore: entry.ignore,
                severity: entry.severity,
            })
            .map_err(|e| format!("{name}: {e}"))?;
            overrides.push((globs, rules));
        }
        let folder = path.parent().map_or_else(PathBuf::new, Path::to_path_buf);
        Ok(Config {
            path: path.to_owned(),
            folder: absolute(&folder),
            rules,
            variant: file.variant,
            overrides,
        })
    }

    /// The configuration file nearest to `folder`: in it or in a folder above it.
    pub fn find(folder: &Path) -> Option<PathBuf> {
        absolute(folder).ancestors().find_map(|dir| {
            FILE_NAMES
                .iter()
                .map(|name| dir.join(name))
                .find(|candidate| candidate.is_file())
        })
    }

    /// The selection for `file`: the file's rules, then each override whose globs match
    /// the file's path relative to the configuration's folder.
    pub fn selection_for(&self, file: &Path) -> Selection {
        let mut selection = Selection::default();
        self.rules.apply(&mut selection);
        let file = absolute(file);
        let relative = file.strip_prefix(&self.folder).unwrap_or(&file);
        for (globs, rules) in &self.overrides {
            if globs.is_match(relative) {
                rules.apply(&mut selection);
            }
        }
        selection
    }
}

/// A YAML error as `FILE:LINE:COLUMN: what`, naming the file (the parser's own message
/// names its input `<input>`).
fn yaml_error(path: &Path, error: &serde_saphyr::Error) -> String {
    let name = path.display();
    let message = error.without_snippet().to_string();
    match error.location() {
        Some(at) => {
            let (line, column) = (at.line(), at.column());
            // The place is said once, in front.
            let what = message
                .strip_suffix(&format!(" at line {line}, column {column}"))
                .unwrap_or(&message);
            format!("{name}:{line}:{column}: {what}")
        }
        None => format!("{name}: {message}"),
    }
}

/// `path` from the root, without resolving symbolic links (globs see the names the user
/// sees).
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(dir: &Path, text: &str) -> Config {
        std::fs::create_dir_all(dir).unwrap();
        let path = dir.join("xpgn.yaml");
        std::fs::write(&path, text).unwrap();
        Config::load(&path).unwrap()
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xpgn-config-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn rules_overrides_and_severities() {
        let dir = scratch("rules");
        let config = config(
            &dir,
            "ignore: [missing-roster-tag]\nseverity:\n  non-canonical-castling: error\nvariant: chess960\noverrides:\n  - files: [\"forum/**\"]\n    select: [illegal-move]\n",
        );
        assert_eq!(config.variant.as_deref(), Some("chess960"));
        let top = config.selection_for(&dir.join("games.pgn"));
        assert!(top.selects(Code::IllegalMove));
        assert!(!top.selects(Code::MissingRosterTag));
        assert_eq!(
            top.severity.get(&Code::NonCanonicalCastling),
            Some(&Severity::Error)
        );
        let forum = config.selection_for(&dir.join("forum/2026/thread.txt"));
        assert!(forum.selects(Code::IllegalMove));
        assert!(!forum.selects(Code::NonCanonicalCastling));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn found_upward_and_errors_name_the_file() {
        let dir = scratch("find");
        config(&dir, "select: [all]\n");
        std::fs::create_dir_all(dir.join("a/b")).unwrap();
        assert_eq!(
            Config::find(&dir.join("a/b")),
            Some(absolute(&dir.join("xpgn.yaml")))
        );
        std::fs::write(dir.join("a/xpgn.yaml"), "ignore: [no-such-rule]\n").unwrap();
        let error = Config::load(&dir.join("a/xpgn.yaml")).unwrap_err();
        assert!(error.contains("a/xpgn.yaml"), "{error}");
        assert!(error.contains("unknown rule `no-such-rule`"), "{error}");
        std::fs::write(dir.join("a/xpgn.yaml"), "selct: [all]\n").unwrap();
        let error = Config::load(&dir.join("a/xpgn.yaml")).unwrap_err();
        assert!(error.contains("selct"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
