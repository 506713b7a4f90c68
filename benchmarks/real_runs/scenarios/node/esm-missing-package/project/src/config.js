// dotenv is only a devDependency: a production install (--omit=dev) does not have it.
import "dotenv/config";
import ms from "ms";

export const config = {
  port: Number(process.env.PORT ?? 9464),
  scrapeInterval: ms(process.env.SCRAPE_INTERVAL ?? "15s"),
};
