// The camera's picture opens full screen: a tap on the small picture shows it as large as
// the screen allows (and the browser's full screen where it may), to read every label.
import { byId } from "./dom.js";

export function setupCamera() {
  const dialog = byId("camera-dialog");
  const full = byId("camera-full");
  byId("camera-open").addEventListener("click", () => {
    full.src = byId("camera-picture").src;
    dialog.showModal();
    if (dialog.requestFullscreen) dialog.requestFullscreen().catch(() => {});
  });
  const close = () => {
    if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    dialog.close();
  };
  byId("camera-close").addEventListener("click", close);
  dialog.addEventListener("click", (event) => { if (event.target === full) close(); });
  followPicture();
}

// A newer picture while it is open full screen replaces the one shown.
export function followPicture() {
  const small = byId("camera-picture");
  new MutationObserver(() => {
    if (byId("camera-dialog").open) byId("camera-full").src = small.src;
  }).observe(small, { attributes: true, attributeFilter: ["src"] });
}
