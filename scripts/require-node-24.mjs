// The runtime the project runs on: Node 24, which `npm ci` installs (the `node` package) and every
// npm script uses (docs/decisions/037-node-24.md). Each entry point imports this first, before
// anything that might not load on an older Node, so that one started by an older `node` directly
// stops with one line saying how to run it.
const [major] = process.versions.node.split('.').map(Number);
if (major < 24) {
  console.error(`This service runs on Node 24, not ${process.versions.node}: start it through npm (npm start, npm run worker, npm run …), which runs the Node 24 that npm ci installed.`);
  process.exit(1);
}
