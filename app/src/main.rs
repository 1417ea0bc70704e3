//! Entry point: install the panic hook and mount the explorer.

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(scalescope_app::App);
}
