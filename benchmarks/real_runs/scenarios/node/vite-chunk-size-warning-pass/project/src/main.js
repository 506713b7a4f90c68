import { PLACES } from "./places.generated.js";
import { search } from "./search.js";

const app = document.querySelector("#app");
const input = document.createElement("input");
input.placeholder = `Search ${PLACES.length} places`;
const list = document.createElement("ul");
app.append(input, list);

input.addEventListener("input", () => {
  try {
    list.innerHTML = search(PLACES, input.value)
      .map(([name, lat, lon]) => `<li>${name} (${lat}, ${lon})</li>`)
      .join("");
  } catch (err) {
    console.error("search error:", err);
  }
});
