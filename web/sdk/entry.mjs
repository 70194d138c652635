export { DiscordSDK, DiscordSDKMock } from "@discord/embedded-app-sdk";
