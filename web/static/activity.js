// The Discord Activity: this page runs in Discord's frame. It tells Discord it is ready,
// asks the user to authorize the `identify` scope, and hands the code to the bot's server,
// which exchanges it with Discord (the app's secret stays there) and answers with the
// user and the table playing in the channel the Activity was launched in; that table's
// page is then drawn here, its moves made as that user. The page speaks the language the
// server chose (the address's ?lang= or the browser's) until Discord says the user's
// locale (the server's answer, from Discord's users/@me; else the SDK's): then that
// language's words are fetched and used, the table's frames too. Once the table's game is
// over or its table closed, the page follows the channel's next table (/table new).

import { language, languages, t, useWords } from "./common.js";
import { DiscordSDK, DiscordSDKMock } from "./vendor/discord-sdk.js";

const main = document.getElementById("table");
const status = document.getElementById("status");
const clientId = main.dataset.client;

const PROBLEMS = { not_identified: "web.activity.not_identified", rate_limited: "web.activity.rate_limited",
  bad_origin: "web.turn.origin_refused" };

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
    say(t("web.activity.outside"));
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
  if (answer.ok) await speak(found.language || await sdkLocale(sdk));
  if (!answer.ok) {
    say(t(PROBLEMS[found.code] || "web.activity.failed"));
    return;
  }
  // once the table's game is over or the table closed (or the channel had none), the
  // channel's next table (/table new) is looked for now and then, and shown when it opens
  main.addEventListener("stackbot:ended", () => follow(sdk.channelId));
  if (found.table !== null) {
    await show(found.table);
    return;
  }
  say(t("web.activity.no_table", { name: found.user.name }));
  follow(sdk.channelId);
}

const FOLLOW_MS = 3000;  // how often the channel's next table is looked for
let following = false;

// the live page of table ``id``, as this user (a module of its own per table: a table's
// page before it is told to leave, "stackbot:leave", and its state goes with it)
async function show(id) {
  main.dataset.table = String(id);
  await import(`./table.js?table=${id}`);
}

function follow(channel) {
  if (following || !channel) return;
  following = true;
  const look = async () => {
    let table = null;
    try {
      const answer = await fetch(`/activity/table?channel=${channel}`, { credentials: "same-origin" });
      if (answer.ok) table = (await answer.json()).table;
    } catch (err) {
      console.info(err);
    }
    if (table !== null && String(table) !== main.dataset.table) {
      following = false;
      main.dispatchEvent(new CustomEvent("stackbot:leave"));
      await show(table);
      return;
    }
    setTimeout(look, FOLLOW_MS);
  };
  setTimeout(look, FOLLOW_MS);
}

// the user's locale as the SDK says it ("ja", "en-US"…; "" when it does not)
async function sdkLocale(sdk) {
  try {
    const { locale } = await sdk.commands.userSettingsGetLocale();
    return locale || "";
  } catch (err) {
    console.info(err);
    return "";
  }
}

// the page's words in the language of ``locale`` from now on (one we speak; else the page
// keeps its own)
async function speak(locale) {
  const wanted = String(locale || "").toLowerCase().split(/[-_]/)[0];
  if (!languages().includes(wanted) || wanted === language()) return;
  const answer = await fetch(`/words/${wanted}.json`);
  if (answer.ok) useWords(await answer.json());
}

start().catch((err) => {
  console.error(err);
  say(t("web.activity.failed"));
});
