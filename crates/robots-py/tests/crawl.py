"""A real Scrapy crawl, run as its own process by the Scrapy tests (a Twisted reactor
runs once per process): `python crawl.py CONFIG.json`, where the config gives the
settings, the requests (URL and meta), the file to write the crawl's stats to, and the
file to write each response's AI usage preferences to (`seen`, JSON lines)."""

import json
import sys

import scrapy
from scrapy.crawler import CrawlerProcess


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as f:
        config = json.load(f)

    class Probe(scrapy.Spider):
        name = "probe"

        async def start(self):
            for r in config["requests"]:
                yield scrapy.Request(r["url"], meta=r.get("meta", {}), dont_filter=True, callback=self.parse)

        def start_requests(self):  # Scrapy before 2.13
            for r in config["requests"]:
                yield scrapy.Request(r["url"], meta=r.get("meta", {}), dont_filter=True, callback=self.parse)

        def parse(self, response):
            # What the middleware told the spider of the page's AI usage preferences.
            with open(config["seen"], "a", encoding="utf-8") as f:
                f.write(json.dumps({
                    "url": response.url,
                    "content_usage": response.meta.get("robots_content_usage", "absent"),
                    "content_signal": response.meta.get("robots_content_signal", "absent"),
                }) + "\n")
            return None

    settings = {"LOG_LEVEL": "INFO", "TELNETCONSOLE_ENABLED": False, "RETRY_TIMES": 1,
                "DOWNLOAD_TIMEOUT": 10, **config["settings"]}
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(Probe)
    process.crawl(crawler)
    process.start()
    stats = {k: v for k, v in crawler.stats.get_stats().items() if isinstance(v, (int, float, str))}
    with open(config["out"], "w", encoding="utf-8") as f:
        json.dump(stats, f)


if __name__ == "__main__":
    main()
