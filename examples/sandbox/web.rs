//! The few things the sandbox asks of the browser when it runs in a web page (issue 21):
//! its URL query (the command line), the console (where `--bench` prints), and files, which
//! a page cannot write: saving a scene downloads it, and a file chosen with the page's
//! "Open scene file" button (`web/index.html`) is handed over through `window.sandboxUpload`.

use wasm_bindgen::{JsCast, JsValue};

/// The page's URL query, with its `?` (empty if none).
pub fn url_query() -> String {
    let Some(window) = web_sys::window() else { return String::new() };
    js_sys::Reflect::get(&window, &"location".into())
        .and_then(|location| js_sys::Reflect::get(&location, &"search".into()))
        .ok()
        .and_then(|search| search.as_string())
        .unwrap_or_default()
}

/// One line on the browser's console.
pub fn console_log(line: &str) {
    web_sys::console::log_1(&line.into());
}

/// One error on the browser's console.
pub fn console_error(line: &str) {
    web_sys::console::error_1(&line.into());
}

/// Offers `text` to the user as a download named `name` (the browser's "save file").
pub fn download(name: &str, text: &str) -> Result<(), String> {
    let failed = |e: JsValue| format!("the browser refused the download: {e:?}");
    let window = web_sys::window().ok_or("no browser window")?;
    let document = window.document().ok_or("no document")?;
    let parts = js_sys::Array::of1(&text.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/ron");
    let blob =
        web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).map_err(failed)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(failed)?;
    let link = document.create_element("a").map_err(failed)?;
    link.set_attribute("href", &url).map_err(failed)?;
    link.set_attribute("download", name).map_err(failed)?;
    let link = link.dyn_into::<web_sys::HtmlElement>().map_err(|_| "not an HTML element")?;
    link.click();
    // The URL is not revoked: the download may still be reading it; a page keeps a few.
    Ok(())
}

/// The file the user chose in the page since the last call: its name and text.
pub fn take_upload() -> Option<(String, String)> {
    let window = web_sys::window()?;
    let key = JsValue::from_str("sandboxUpload");
    let upload = js_sys::Reflect::get(&window, &key).ok()?;
    if upload.is_undefined() || upload.is_null() {
        return None;
    }
    js_sys::Reflect::set(&window, &key, &JsValue::UNDEFINED).ok()?;
    let field = |name: &str| js_sys::Reflect::get(&upload, &name.into()).ok()?.as_string();
    Some((field("name")?, field("text")?))
}
