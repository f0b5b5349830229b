// Placeholder build: copy index.html to where the site serves the web app from.
const fs = require("fs");
const path = require("path");

const target = path.join(__dirname, "..", "huf", "public", "frontend");
fs.mkdirSync(target, { recursive: true });
fs.copyFileSync(path.join(__dirname, "index.html"), path.join(target, "index.html"));
console.log("Huf: copied frontend/index.html to huf/public/frontend/index.html");
