// The Discord Activity: this page runs in Discord's frame. It tells Discord it is ready,
// asks the user to authorize the `identify` scope, and hands the code to the bot's server,
// which exchanges it with Discord (the app's secret stays there) and answers with the
// user and the table playing in the channel the Activity was launched in; that table's
// page is then drawn here, its moves made as that user.

import { DiscordSDK, DiscordSDKMock } from "./vendor/discord-sdk.js";

const main = document.getElementById("table");
const status = document.getElementById("status");
const clientId = main.dataset.client;

const PROBLEMS = {
  not_identified: "Discord did not say who you are: close the Activity and open it again.",
  rate_limited: "Too many tries: wait a moment and open it again.",
};

function say(text) {
  status.textContent = text;
}

async function start() {
  const query = new URLSearchParams(location.search);
  let sdk;
  if (main.dataset.mock) {
    // the server says: outside Discord, the SDK's mock (the browser tests)
    sdk = new DiscordSDKMock(clientId, null, query.get("channel"), null);
  } else if (query.has("frame_id")) {
    sdk = new DiscordSDK(clientId);
  } else {
    say("Open this page from Discord: /table activity in a channel with a table.");
    return;
  }
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const answer = await fetch("/activity/session", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    credentials: "same-origin",
    body: JSON.stringify({ code, channel_id: sdk.channelId }),
  });
  const found = await answer.json();
  if (!answer.ok) {
    say(PROBLEMS[found.code] || "The Activity could not start: open it again.");
    return;
  }
  if (found.table === null) {
    say(`Hello ${found.user.name}: no table is playing in this channel. Open one with /table new.`);
    return;
  }
  main.dataset.table = String(found.table);
  await import("./table.js"); // the table's live page, as this user
}

start().catch((err) => {
  console.error(err);
  say("The Activity could not start: open it again.");
});
