//! A canvas backend whose text measurement asks the canvas itself
//! (`measureText`). plotters' default measures each label by adding a
//! `<span>` to the page and reading its size back, which forces a layout
//! per label and cost most of a repaint. Everything else is delegated to
//! `plotters_canvas::CanvasBackend`.
//!
//! The same backend also writes SVG (for chart downloads): one backend type
//! means the chart code is compiled once for the browser, not once per
//! output format, which keeps the site small. Text is measured by the
//! canvas in both modes, so the SVG lays out exactly as the screen does.

use crate::format::escape_html;
use core::fmt::Write as _;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
    FontTransform,
};
use plotters_canvas::CanvasBackend;
use std::cell::RefCell;
use std::rc::Rc;

type CanvasError = <CanvasBackend as DrawingBackend>::ErrorType;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// The SVG document an SVG-mode backend writes, shared with its caller.
pub type SvgBuffer = Rc<RefCell<String>>;

/// [`CanvasBackend`] with fast text measurement, or an SVG writer.
pub struct FastCanvas {
    inner: CanvasBackend,
    context: CanvasRenderingContext2d,
    /// SVG mode: the document being written and its size.
    svg: Option<(SvgBuffer, (u32, u32))>,
    /// The drawing's size in CSS pixels when the canvas holds more device
    /// pixels than that (a high-density screen).
    size: Option<(u32, u32)>,
}

fn rgb(c: BackendColor) -> String {
    let (r, g, b) = c.rgb;
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// ` stroke="#..." stroke-opacity=".." stroke-width=".."`
fn stroke<S: BackendStyle>(style: &S) -> String {
    let c = style.color();
    format!(
        " fill=\"none\" stroke=\"{}\" stroke-opacity=\"{:.3}\" stroke-width=\"{}\"",
        rgb(c),
        c.alpha,
        style.stroke_width()
    )
}

/// A filled or an outlined shape's paint attributes.
fn paint<S: BackendStyle>(style: &S, filled: bool) -> String {
    if filled {
        fill(style.color())
    } else {
        stroke(style)
    }
}

fn fill(c: BackendColor) -> String {
    format!(" fill=\"{}\" fill-opacity=\"{:.3}\"", rgb(c), c.alpha)
}

fn points<I: IntoIterator<Item = BackendCoord>>(path: I) -> String {
    let mut out = String::new();
    for (x, y) in path {
        let _ = write!(out, "{x},{y} ");
    }
    out
}

impl FastCanvas {
    /// Wraps a canvas element; `None` if it has no 2D context.
    #[must_use]
    pub fn new(canvas: &HtmlCanvasElement) -> Option<Self> {
        let context = canvas
            .get_context("2d")
            .ok()
            .flatten()?
            .dyn_into::<CanvasRenderingContext2d>()
            .ok()?;
        let inner = CanvasBackend::with_canvas_object(canvas.clone())?;
        Some(Self {
            inner,
            context,
            svg: None,
            size: None,
        })
    }

    /// A backend that draws `size` CSS pixels onto a canvas of `scale`
    /// device pixels per CSS pixel, so charts are sharp on high-density
    /// screens while every coordinate (and hover target) stays in CSS
    /// pixels.
    #[must_use]
    pub fn scaled(canvas: &HtmlCanvasElement, size: (u32, u32), scale: f64) -> Option<Self> {
        let mut backend = Self::new(canvas)?;
        backend
            .context
            .set_transform(scale, 0.0, 0.0, scale, 0.0, 0.0)
            .ok()?;
        backend.size = Some(size);
        Some(backend)
    }

    /// An SVG writer of `size` pixels that measures text with `canvas`.
    /// The document is in the returned buffer once drawing has finished.
    #[must_use]
    pub fn svg(canvas: &HtmlCanvasElement, size: (u32, u32)) -> Option<(Self, SvgBuffer)> {
        let mut backend = Self::new(canvas)?;
        let buffer = Rc::new(RefCell::new(format!(
            "<svg width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
             xmlns=\"http://www.w3.org/2000/svg\">\n",
            w = size.0,
            h = size.1
        )));
        backend.svg = Some((buffer.clone(), size));
        Some((backend, buffer))
    }

    /// Appends one SVG element (SVG mode only).
    fn put(&self, element: &str) {
        if let Some((buffer, _)) = &self.svg {
            let mut b = buffer.borrow_mut();
            b.push_str(element);
            b.push('\n');
        }
    }
}

impl DrawingBackend for FastCanvas {
    type ErrorType = CanvasError;

    fn get_size(&self) -> (u32, u32) {
        match (&self.svg, &self.size) {
            (Some((_, size)), _) | (None, Some(size)) => *size,
            (None, None) => self.inner.get_size(),
        }
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<CanvasError>> {
        if self.svg.is_some() {
            return Ok(());
        }
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<CanvasError>> {
        if let Some((buffer, _)) = &self.svg {
            let mut b = buffer.borrow_mut();
            if !b.ends_with("</svg>\n") {
                b.push_str("</svg>\n");
            }
            return Ok(());
        }
        self.inner.present()
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        if self.svg.is_some() {
            self.put(&format!(
                "<rect x=\"{}\" y=\"{}\" width=\"1\" height=\"1\"{}/>",
                point.0,
                point.1,
                fill(color)
            ));
            return Ok(());
        }
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        if self.svg.is_some() {
            self.put(&format!(
                "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"{}/>",
                from.0,
                from.1,
                to.0,
                to.1,
                stroke(style)
            ));
            return Ok(());
        }
        self.inner.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        if self.svg.is_some() {
            let paint = paint(style, fill);
            self.put(&format!(
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"{paint}/>",
                upper_left.0,
                upper_left.1,
                bottom_right.0 - upper_left.0,
                bottom_right.1 - upper_left.1,
            ));
            return Ok(());
        }
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        if self.svg.is_some() {
            self.put(&format!(
                "<polyline points=\"{}\"{}/>",
                points(path),
                stroke(style)
            ));
            return Ok(());
        }
        self.inner.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        if self.svg.is_some() {
            let paint = paint(style, fill);
            self.put(&format!(
                "<circle cx=\"{}\" cy=\"{}\" r=\"{radius}\"{paint}/>",
                center.0, center.1
            ));
            return Ok(());
        }
        self.inner.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        if self.svg.is_some() {
            self.put(&format!(
                "<polygon points=\"{}\"{}/>",
                points(vert),
                fill(style.color())
            ));
            return Ok(());
        }
        self.inner.fill_polygon(vert, style)
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        if self.svg.is_some() {
            let anchor = style.anchor();
            let h = match anchor.h_pos {
                HPos::Left => "start",
                HPos::Center => "middle",
                HPos::Right => "end",
            };
            let v = match anchor.v_pos {
                VPos::Top => "text-before-edge",
                VPos::Center => "middle",
                VPos::Bottom => "text-after-edge",
            };
            let rotate = match style.transform() {
                FontTransform::Rotate90 => 90,
                FontTransform::Rotate180 => 180,
                FontTransform::Rotate270 => 270,
                _ => 0,
            };
            let transform = if rotate == 0 {
                String::new()
            } else {
                format!(" transform=\"rotate({rotate}, {}, {})\"", pos.0, pos.1)
            };
            self.put(&format!(
                "<text x=\"{}\" y=\"{}\" font-family=\"{}\" font-size=\"{}\" \
                 text-anchor=\"{h}\" dominant-baseline=\"{v}\"{}{transform}>{}</text>",
                pos.0,
                pos.1,
                escape_html(style.family().as_str()),
                style.size(),
                fill(style.color()),
                escape_html(text)
            ));
            return Ok(());
        }
        self.inner.draw_text(text, style, pos)
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<CanvasError>> {
        self.context.set_font(&format!(
            "{} {}px {}",
            style.style().as_str(),
            style.size(),
            style.family().as_str(),
        ));
        let width = self.context.measure_text(text).map_or(0.0, |m| m.width());
        // A line box is about 1.2 em, as the span measurement gave.
        let height = style.size() * 1.2;
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let size = (width.ceil().max(0.0) as u32, height.ceil().max(0.0) as u32);
        Ok(size)
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        if self.svg.is_some() {
            // The charts draw no bitmaps.
            return Ok(());
        }
        self.inner.blit_bitmap(pos, size, src)
    }
}
