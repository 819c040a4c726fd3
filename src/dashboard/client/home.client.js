// Served as /assets/home.client.js. The entry of `/`: the new-session picker and the session list.
import { $ } from "./dom.client.js";
import { wireCommon } from "./common.client.js";
import { fillChecksColumn } from "./home-checks.client.js";
import { wirePicker } from "./picker.client.js";

wireCommon();
const form = $("#picker-create");
if (form) wirePicker(form);
void fillChecksColumn();

// "/" jumps to the scenario search, as in most developer tools.
document.addEventListener("keydown", (event) => {
  if (event.key !== "/" || (event.target instanceof Element && event.target.closest("input, textarea, select"))) return;
  event.preventDefault();
  $("[data-role=search]")?.focus();
});
