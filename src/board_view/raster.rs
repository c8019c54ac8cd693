//! Board pictures as images: the SVG of [`svg_board`](super::svg_board) drawn to pixels
//! by resvg with a bundled font (a subset of DejaVu Sans, `assets/fonts/`), so that a
//! picture looks the same on every machine; one as a PNG, a game's as an animated GIF
//! written a frame at a time.

use std::io::{self, Write};

use resvg::{tiny_skia, usvg};

/// DejaVu Sans cut to Latin, punctuation and arrows: the coordinates and the legend.
const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-subset.ttf");

/// Draws pictures to pixels, with the bundled font loaded once.
pub struct Rasteriser {
    options: usvg::Options<'static>,
}

impl Default for Rasteriser {
    fn default() -> Self {
        Self::new()
    }
}

impl Rasteriser {
    pub fn new() -> Rasteriser {
        let mut options = usvg::Options::default();
        options.fontdb_mut().load_font_data(FONT.to_vec());
        "DejaVu Sans".clone_into(&mut options.font_family);
        Rasteriser { options }
    }

    /// The picture's pixels, at the size its SVG gives (its `width` and `height`).
    pub fn pixmap(&self, svg: &str) -> io::Result<tiny_skia::Pixmap> {
        let tree = usvg::Tree::from_str(svg, &self.options).map_err(io::Error::other)?;
        let size = tree.size().to_int_size();
        let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
            .ok_or_else(|| io::Error::other("a picture without pixels"))?;
        resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
        Ok(pixmap)
    }

    /// The picture as a PNG file.
    pub fn png(&self, svg: &str) -> io::Result<Vec<u8>> {
        self.pixmap(svg)?.encode_png().map_err(io::Error::other)
    }
}

/// An animated GIF, looping, written to `out` a frame at a time: it keeps only the frame
/// before, however many follow. A frame holds just the rectangle that changed since the
/// one before, its unchanged pixels transparent (a move changes a few squares and the
/// legend), which keeps a game's GIF small enough for a forum post.
pub struct GifWriter<W: Write> {
    encoder: gif::Encoder<W>,
    width: u16,
    height: u16,
    /// The pixels shown so far (RGBA); empty before the first frame.
    shown: Vec<u8>,
}

/// How hard the colour quantiser works (1 best, 30 fastest): 10 is the gif crate's own
/// choice, good for a board's few colours and the pieces' edges.
const QUANTISER_SPEED: i32 = 10;

impl<W: Write> GifWriter<W> {
    /// A GIF whose frames are `width` by `height` pixels.
    pub fn new(out: W, width: u32, height: u32) -> io::Result<GifWriter<W>> {
        let too_large = || io::Error::other("a GIF is at most 65535 pixels wide and high");
        let width = u16::try_from(width).map_err(|_| too_large())?;
        let height = u16::try_from(height).map_err(|_| too_large())?;
        let mut encoder = gif::Encoder::new(out, width, height, &[]).map_err(io::Error::other)?;
        encoder
            .set_repeat(gif::Repeat::Infinite)
            .map_err(io::Error::other)?;
        Ok(GifWriter {
            encoder,
            width,
            height,
            shown: Vec::new(),
        })
    }

    /// Adds a frame shown for `delay` hundredths of a second. The picture must have the
    /// GIF's size and be opaque (a board picture has a white background), so that its
    /// premultiplied pixels are the plain ones.
    pub fn frame(&mut self, pixmap: &tiny_skia::Pixmap, delay: u16) -> io::Result<()> {
        if (pixmap.width(), pixmap.height()) != (u32::from(self.width), u32::from(self.height)) {
            return Err(io::Error::other(format!(
                "a {}x{} frame in a {}x{} GIF",
                pixmap.width(),
                pixmap.height(),
                self.width,
                self.height
            )));
        }
        let pixels = pixmap.data();
        let (left, top, width, height) = if self.shown.is_empty() {
            (0, 0, self.width, self.height)
        } else {
            changed(&self.shown, pixels, self.width, self.height)
        };
        let stride = usize::from(self.width) * 4;
        let mut cut = Vec::with_capacity(usize::from(width) * usize::from(height) * 4);
        for y in top..top + height {
            let start = usize::from(y) * stride + usize::from(left) * 4;
            let row = start..start + usize::from(width) * 4;
            if self.shown.is_empty() {
                cut.extend_from_slice(&pixels[row]);
                continue;
            }
            // A pixel that stays is transparent: the frame before shows through, and
            // the runs of one index compress to almost nothing.
            for (new, old) in pixels[row.clone()]
                .chunks_exact(4)
                .zip(self.shown[row].chunks_exact(4))
            {
                cut.extend_from_slice(if new == old { &[0; 4] } else { new });
            }
        }
        let mut frame = gif::Frame::from_rgba_speed(width, height, &mut cut, QUANTISER_SPEED);
        frame.left = left;
        frame.top = top;
        frame.delay = delay;
        frame.dispose = gif::DisposalMethod::Keep;
        self.encoder.write_frame(&frame).map_err(io::Error::other)?;
        self.shown.clear();
        self.shown.extend_from_slice(pixels);
        Ok(())
    }

    /// Ends the GIF and gives back its writer.
    pub fn finish(self) -> io::Result<W> {
        self.encoder.into_inner().map_err(io::Error::other)
    }
}

/// The smallest rectangle (left, top, width, height) that holds every pixel that differs
/// between two RGBA pictures of `width` by `height`; one pixel when none does (a frame
/// still has to hold the time).
fn changed(before: &[u8], after: &[u8], width: u16, height: u16) -> (u16, u16, u16, u16) {
    let stride = usize::from(width) * 4;
    let mut bounds: Option<(u16, u16, u16, u16)> = None;
    for y in 0..height {
        let row = usize::from(y) * stride..(usize::from(y) + 1) * stride;
        let (old, new) = (&before[row.clone()], &after[row]);
        if old == new {
            continue;
        }
        let first = old
            .chunks_exact(4)
            .zip(new.chunks_exact(4))
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        let last = old
            .chunks_exact(4)
            .zip(new.chunks_exact(4))
            .rposition(|(a, b)| a != b)
            .unwrap_or(0);
        let (first, last) = (first as u16, last as u16);
        bounds = Some(match bounds {
            None => (first, y, last, y),
            Some((x0, y0, x1, _)) => (x0.min(first), y0, x1.max(last), y),
        });
    }
    match bounds {
        Some((x0, y0, x1, y1)) => (x0, y0, x1 - x0 + 1, y1 - y0 + 1),
        None => (0, 0, 1, 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_changed_rectangle_holds_every_change() {
        let (width, height) = (5u16, 4u16);
        let before = vec![0u8; 5 * 4 * 4];
        let mut after = before.clone();
        assert_eq!(changed(&before, &after, width, height), (0, 0, 1, 1));
        // Pixels (3, 1) and (1, 2) change.
        after[(5 + 3) * 4] = 9;
        after[(2 * 5 + 1) * 4 + 2] = 9;
        assert_eq!(changed(&before, &after, width, height), (1, 1, 3, 2));
    }

    #[test]
    fn a_gif_holds_its_frames_at_their_places() {
        let rasteriser = Rasteriser::new();
        let picture = |fill: &str| {
            rasteriser
                .pixmap(&format!(
                    r#"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="6"><rect width="8" height="6" fill="white"/><rect x="2" y="3" width="1" height="2" fill="{fill}"/></svg>"#
                ))
                .unwrap()
        };
        let mut gif = GifWriter::new(Vec::new(), 8, 6).unwrap();
        gif.frame(&picture("white"), 50).unwrap();
        gif.frame(&picture("black"), 70).unwrap();
        let bytes = gif.finish().unwrap();
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::RGBA);
        let mut decoder = options.read_info(bytes.as_slice()).unwrap();
        let first = decoder.read_next_frame().unwrap().unwrap();
        assert_eq!((first.width, first.height, first.delay), (8, 6, 50));
        let second = decoder.read_next_frame().unwrap().unwrap().clone();
        assert_eq!(
            (second.left, second.top, second.width, second.height),
            (2, 3, 1, 2)
        );
        assert_eq!(second.delay, 70);
        assert!(second.buffer.chunks(4).all(|p| p == [0, 0, 0, 255]));
        assert!(decoder.read_next_frame().unwrap().is_none());
        let too_large = GifWriter::new(Vec::new(), 70_000, 6);
        assert!(too_large.is_err());
    }
}
