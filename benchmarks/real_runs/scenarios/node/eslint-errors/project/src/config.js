export function loadConfig(env = process.env) {
  console.log("loading relay config");
  return {
    port: Number(env.PORT ?? 8080),
    secret: env.RELAY_SECRET ?? "",
  };
}
