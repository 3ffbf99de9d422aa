/// TetherTerminal: a small toolkit for full-screen terminal apps, with no dependencies beyond the C library.
///
/// - `Text/`: column widths (East Asian wide characters take two), truncation with an ellipsis, word wrap.
/// - `Screen/`: cells, styles, colours, the ``ScreenBuffer`` a frame is drawn into, and the ``ScreenRenderer`` that
///   writes only the cells that changed.
/// - `Input/`: ``Key`` and the ``KeyDecoder`` that turns input bytes into keys.
/// - `Terminal/`: raw mode, the alternate screen, the window size and resizes, always restored on exit.
/// - `Widgets/`: a list, a text field, a multi-line editor, a status bar, a spinner and a confirm dialog.
///
/// Everything but `Terminal/` is pure and deterministic, so apps test their screens by drawing into a buffer.
public enum TetherTerminal {}
