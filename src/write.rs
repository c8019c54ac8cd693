//! Replacing a file in place without ever leaving a partial one: the new text goes to a
//! temporary file in the same directory, created with the original's permissions (so
//! the text of a private file is never readable by others), is synced to disk, takes
//! the original's owner and group, and is renamed over it. A crash or a kill at any
//! moment leaves the original or the complete new file, never a mix (at worst a stray
//! `.NAME.xpgn-*.tmp` beside it).
//!
//! A file with several hard links cannot be replaced by a rename without cutting it off
//! from its other names, which would keep the old text. Its new text is written and
//! synced to the temporary first, as always, then copied into the original file itself:
//! every name sees the new text, owner and permissions stay as they are, at the cost of
//! atomicity (a crash during that copy leaves a partial file, with the complete new
//! text still in the temporary, whose name the error gives).

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// Replaces the contents of `path` with `bytes` (see [`replace_file_with`]): the
/// tests' shorthand, the commands stream theirs.
#[cfg(test)]
fn replace_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    replace_file_with(path, |out| out.write_all(bytes).map(|()| true)).map(|_| ())
}

/// Replaces the contents of `path` with what `write` writes, streamed, so a file of any
/// size needs no more memory than `write` itself uses. `write` returns whether to replace
/// the file at all (`false`: the new text is the same, and the file is left untouched);
/// its error, or any I/O error, leaves the file untouched too. Returns what `write` did.
///
/// A symbolic link is followed only to a file inside the link's own directory (or below
/// it): that file is replaced and the link kept. A link that leads out of that tree is
/// refused, so a rewrite never reaches a file the user did not point at. Only regular
/// files are replaced, and only writable ones: a read-only file is refused. The new file
/// keeps the original's permission bits, owner and group, and its hard links.
pub fn replace_file_with<E: From<io::Error>>(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> Result<bool, E>,
) -> Result<bool, E> {
    let target = resolve(path)?;
    let metadata = fs::metadata(&target)?;
    let original = writable(&target, &metadata)?;
    let temporary = temporary_path(&target);
    let mut options = OpenOptions::new();
    options.read(true).write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        options.mode(metadata.permissions().mode() & 0o777);
    }
    let file = options.open(&temporary)?;
    let written = write_synced(file, write).and_then(|(replace, file)| {
        if replace {
            keep_owner(&file, &metadata)?;
            fs::set_permissions(&temporary, metadata.permissions())?;
            if links(&metadata) > 1 {
                copy_into(file, original, &temporary)?;
                fs::remove_file(&temporary)?;
            } else {
                fs::rename(&temporary, &target)?;
                sync_directory(&target)?;
            }
        }
        Ok(replace)
    });
    if !matches!(written, Ok(true)) {
        // Nothing to do if it is already gone (renamed, or never fully made).
        let _ = fs::remove_file(&temporary);
    }
    written
}

/// The original opened for writing, which tells whether it may be written at all (a
/// rename would replace a file the user may not write, as the directory allows it).
fn writable(target: &Path, metadata: &fs::Metadata) -> io::Result<File> {
    let read_only = || {
        io::Error::new(
            io::ErrorKind::PermissionDenied,
            "is read-only: not rewritten",
        )
    };
    // Checked first: the superuser may open any file for writing.
    if metadata.permissions().readonly() {
        return Err(read_only());
    }
    OpenOptions::new()
        .write(true)
        .open(target)
        .map_err(|e| match e.kind() {
            io::ErrorKind::PermissionDenied => read_only(),
            _ => e,
        })
}

#[cfg(unix)]
fn links(metadata: &fs::Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::nlink(metadata)
}

#[cfg(not(unix))]
fn links(_metadata: &fs::Metadata) -> u64 {
    1
}

/// Gives the temporary the original's owner and group. Only the superuser may give a
/// file away, so a refusal is let pass when the owner is ours already (the group may
/// then differ, if it is one we are not in); otherwise the file is not replaced.
#[cfg(unix)]
fn keep_owner(file: &File, original: &fs::Metadata) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let ours = file.metadata()?;
    if (ours.uid(), ours.gid()) == (original.uid(), original.gid()) {
        return Ok(());
    }
    match std::os::unix::fs::fchown(file, Some(original.uid()), Some(original.gid())) {
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied && ours.uid() == original.uid() => {
            Ok(())
        }
        Err(e) => Err(io::Error::new(
            e.kind(),
            format!(
                "cannot keep its owner {}:{} ({e}): not rewritten",
                original.uid(),
                original.gid()
            ),
        )),
        Ok(()) => Ok(()),
    }
}

#[cfg(not(unix))]
fn keep_owner(_file: &File, _original: &fs::Metadata) -> io::Result<()> {
    Ok(())
}

/// Copies the complete, synced new text from the temporary into the original file.
fn copy_into(mut temporary: File, mut original: File, name: &Path) -> io::Result<()> {
    let copied = (|| {
        temporary.rewind()?;
        original.set_len(0)?;
        let len = io::copy(&mut temporary, &mut original)?;
        original.set_len(len)?;
        original.sync_all()
    })();
    copied.map_err(|e| {
        io::Error::new(
            e.kind(),
            format!(
                "{e} while writing the new text into it (it is complete in {})",
                name.display()
            ),
        )
    })
}

/// Writes through a buffer, then flushes and syncs the file so the rename that follows
/// never exposes data still in flight.
fn write_synced<E: From<io::Error>>(
    file: File,
    write: impl FnOnce(&mut dyn Write) -> Result<bool, E>,
) -> Result<(bool, File), E> {
    let mut out = BufWriter::new(file);
    let replace = write(&mut out)?;
    let file = out.into_inner().map_err(|e| e.into_error())?;
    if replace {
        file.sync_all()?;
    }
    Ok((replace, file))
}

/// The regular file `path` names: itself, or the file a symbolic link leads to when that
/// lies in the link's directory tree.
fn resolve(path: &Path) -> io::Result<PathBuf> {
    let metadata = fs::symlink_metadata(path)?;
    if metadata.file_type().is_symlink() {
        let target = fs::canonicalize(path)?;
        let tree = fs::canonicalize(parent(path))?;
        if !target.starts_with(&tree) {
            return Err(io::Error::new(
                io::ErrorKind::PermissionDenied,
                format!(
                    "is a symbolic link to {}, outside {}: not rewritten",
                    target.display(),
                    tree.display()
                ),
            ));
        }
        return resolve_regular(target);
    }
    resolve_regular(path.to_owned())
}

fn resolve_regular(path: PathBuf) -> io::Result<PathBuf> {
    if fs::metadata(&path)?.is_file() {
        Ok(path)
    } else {
        Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "is not a regular file: not rewritten",
        ))
    }
}

fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// The longest file name most file systems take (`NAME_MAX`), in bytes.
const NAME_MAX: usize = 255;

/// A name no other writer uses: hidden, beside the target (a rename across file systems
/// would not be atomic), unique per process and call, and no longer than a file name may
/// be: the target's name is shortened to fit, so a long name is never refused for its
/// temporary's sake.
fn temporary_path(target: &Path) -> PathBuf {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let tail = format!(".xpgn-{}-{n}.tmp", std::process::id());
    let mut room = NAME_MAX - 1 - tail.len();
    while room < name.len() && !name.is_char_boundary(room) {
        room -= 1;
    }
    let stem = &name[..room.min(name.len())];
    target.with_file_name(format!(".{stem}{tail}"))
}

/// Syncs the directory holding `path`, so the rename itself survives a power loss.
#[cfg(unix)]
fn sync_directory(path: &Path) -> io::Result<()> {
    File::open(parent(path))?.sync_all()
}

#[cfg(not(unix))]
fn sync_directory(_path: &Path) -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xpgn-write-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn replaces_contents_and_leaves_no_temporary_file() {
        let dir = scratch("replace");
        let path = dir.join("a.pgn");
        fs::write(&path, "old text, longer than the new").unwrap();
        replace_file(&path, b"new").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new");
        assert_eq!(entries(&dir), ["a.pgn"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_error_or_no_change_leaves_the_file_untouched() {
        let dir = scratch("untouched");
        let path = dir.join("a.pgn");
        fs::write(&path, "old").unwrap();
        let failed: io::Result<bool> = replace_file_with(&path, |out| {
            out.write_all(b"half of the new text")?;
            Err(io::Error::other("the formatter gave up"))
        });
        assert!(failed.is_err());
        let kept: io::Result<bool> = replace_file_with(&path, |out| {
            out.write_all(b"same")?;
            Ok(false)
        });
        assert!(!kept.unwrap());
        assert_eq!(fs::read(&path).unwrap(), b"old");
        assert_eq!(entries(&dir), ["a.pgn"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn permissions_are_kept() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("permissions");
        let path = dir.join("a.pgn");
        fs::write(&path, "old").unwrap();
        for mode in [0o640, 0o604, 0o755] {
            fs::set_permissions(&path, fs::Permissions::from_mode(mode)).unwrap();
            replace_file(&path, b"new").unwrap();
            let now = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(now, mode);
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn symbolic_links_are_followed_inside_their_tree_only() {
        use std::os::unix::fs::symlink;
        let dir = scratch("links");
        let outside = scratch("links-outside");
        fs::create_dir_all(dir.join("sub")).unwrap();
        fs::write(dir.join("sub/real.pgn"), "old").unwrap();
        fs::write(outside.join("far.pgn"), "far").unwrap();
        symlink("sub/real.pgn", dir.join("inside.pgn")).unwrap();
        symlink(outside.join("far.pgn"), dir.join("outside.pgn")).unwrap();
        fs::write(dir.join("top.pgn"), "top").unwrap();
        symlink("../top.pgn", dir.join("sub/up.pgn")).unwrap();

        replace_file(&dir.join("inside.pgn"), b"new").unwrap();
        assert_eq!(fs::read(dir.join("sub/real.pgn")).unwrap(), b"new");
        assert!(
            fs::symlink_metadata(dir.join("inside.pgn"))
                .unwrap()
                .file_type()
                .is_symlink(),
            "the link stays a link"
        );

        for refused in ["outside.pgn", "sub/up.pgn"] {
            let e = replace_file(&dir.join(refused), b"evil").unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::PermissionDenied, "{refused}: {e}");
        }
        assert_eq!(fs::read(outside.join("far.pgn")).unwrap(), b"far");
        assert_eq!(fs::read(dir.join("top.pgn")).unwrap(), b"top");
        assert_eq!(fs::read(dir.join("sub/real.pgn")).unwrap(), b"new");
        assert_eq!(entries(&outside), ["far.pgn"]);

        let e = replace_file(&dir.join("sub"), b"x").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        fs::remove_dir_all(&dir).unwrap();
        fs::remove_dir_all(&outside).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_private_file_is_never_readable_by_others_not_even_while_written() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("private");
        let path = dir.join("a.pgn");
        fs::write(&path, "old").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
        replace_file_with(&path, |out| {
            out.write_all(b"new")?;
            for name in entries(&dir).iter().filter(|n| n.ends_with(".tmp")) {
                let mode = fs::metadata(dir.join(name)).unwrap().permissions().mode();
                assert_eq!(mode & 0o077, 0, "{name} is {mode:o} while written");
            }
            Ok::<_, io::Error>(true)
        })
        .unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        assert_eq!(fs::read(&path).unwrap(), b"new");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn hard_links_keep_seeing_the_file() {
        use std::os::unix::fs::MetadataExt;
        let dir = scratch("hard-links");
        let path = dir.join("a.pgn");
        fs::write(&path, "old text").unwrap();
        fs::hard_link(&path, dir.join("b.pgn")).unwrap();
        let inode = fs::metadata(&path).unwrap().ino();
        replace_file(&path, b"new").unwrap();
        for name in ["a.pgn", "b.pgn"] {
            let metadata = fs::metadata(dir.join(name)).unwrap();
            assert_eq!((metadata.ino(), metadata.nlink()), (inode, 2), "{name}");
            assert_eq!(fs::read(dir.join(name)).unwrap(), b"new", "{name}");
        }
        assert_eq!(entries(&dir), ["a.pgn", "b.pgn"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_read_only_file_is_refused_and_untouched() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("read-only");
        let path = dir.join("a.pgn");
        fs::write(&path, "old").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o444)).unwrap();
        let e = replace_file(&path, b"new").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::PermissionDenied);
        assert_eq!(e.to_string(), "is read-only: not rewritten");
        assert_eq!(fs::read(&path).unwrap(), b"old");
        assert_eq!(entries(&dir), ["a.pgn"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn the_owner_and_group_are_kept() {
        use std::os::unix::fs::MetadataExt;
        let dir = scratch("owner");
        let path = dir.join("a.pgn");
        fs::write(&path, "old").unwrap();
        if fs::metadata(&path).unwrap().uid() != 0 {
            eprintln!("skipped: only the superuser can give a file to another owner to test this");
            fs::remove_dir_all(&dir).unwrap();
            return;
        }
        std::os::unix::fs::chown(&path, Some(4321), Some(8765)).unwrap();
        replace_file(&path, b"new").unwrap();
        let metadata = fs::metadata(&path).unwrap();
        assert_eq!((metadata.uid(), metadata.gid()), (4321, 8765));
        assert_eq!(fs::read(&path).unwrap(), b"new");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_long_name_gets_a_temporary_name_that_fits() {
        let dir = scratch("long-name");
        for name in ["é".repeat(125) + ".pgn", "x".repeat(251) + ".pgn"] {
            let path = dir.join(&name);
            fs::write(&path, "old").unwrap();
            assert!(temporary_path(&path).file_name().unwrap().len() <= NAME_MAX);
            replace_file(&path, b"new").unwrap();
            assert_eq!(fs::read(&path).unwrap(), b"new");
            fs::remove_file(&path).unwrap();
        }
        assert!(entries(&dir).is_empty());
        fs::remove_dir_all(&dir).unwrap();
    }
}
