//! Entry point: install the panic banner and mount the explorer.

use std::panic;

/// Shows a visible banner when anything panics, instead of a frozen page,
/// after logging the panic to the console as usual.
fn install_panic_banner() {
    panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        if doc.get_element_by_id("panic-banner").is_some() {
            return;
        }
        if let (Ok(banner), Some(body)) = (doc.create_element("div"), doc.body()) {
            banner.set_id("panic-banner");
            let _ = banner.set_attribute("role", "alert");
            let _ = banner.set_attribute("data-testid", "panic-banner");
            banner.set_text_content(Some(
                "ScaleScope hit an internal error and stopped. Reload the page to start again; \
                 the browser console has the details.",
            ));
            let _ = body.prepend_with_node_1(&banner);
        }
    }));
}

fn main() {
    install_panic_banner();
    leptos::mount::mount_to_body(scalescope_app::App);
}
