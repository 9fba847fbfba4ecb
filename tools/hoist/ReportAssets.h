// The style and the scripts every page of `hoist report` carries inline, so that a report is
// one directory that opens without a network or a server.
#pragma once

namespace hoist {

/// The CSS of every page.
const char *reportStyle();

/// Runs first, in the head: a script error anywhere on the page is written into it (a
/// `<pre id="script-error">`), where a reader and a test's dump of the DOM both see it.
const char *reportErrorCatcher();

/// A function page's selection: an instruction chosen (a click on its assembly, its IR or its
/// block in the graph, or `#0xADDR` in the URL) gets the class `selected`, as do its IR lines
/// in every listing and its block in the graph. When it has run to its end it sets
/// `data-script="done"` on the body.
const char *reportSelectionScript();

} // namespace hoist
