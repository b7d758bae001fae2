// Starts `umpire lsp` (or the command set in "umpire.command") as the language server of
// Umpire's files: diagnostics as you type, go to definition, hover, completion.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("umpire").get("command", ["umpire", "lsp"]);
  const server = { command, args };
  client = new LanguageClient("umpire", "Umpire", { run: server, debug: server }, {
    documentSelector: [{ scheme: "file", language: "umpire" }],
  });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
