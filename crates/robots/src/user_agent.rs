//! Reading a crawler's product token out of a full `User-Agent` header (RFC 9110 §10.1.5):
//! which of its products and comment items names the crawler rather than a browser or
//! a platform.

/// The crawler a `User-Agent` header names, tried in this order:
///
/// 1. the item after `compatible` in a comment: `(compatible; Googlebot/2.1; +http://…)`,
///    `(compatible; archive.org_bot +http://…)`;
/// 2. the item that carries, or comes just before, a `+http…` or `http…` link in a
///    comment: `(Applebot/0.1; +http://…)`;
/// 3. the first product outside comments that no browser sends: `CCBot/2.0 (…)`,
///    `ia_archiver`;
/// 4. failing all of those, the first product (a browser's header names `Mozilla`).
///
/// Comments that describe the platform (`(Linux; Android 6.0.1)`, `(Macintosh; …)`,
/// `(iPhone; …)`) name no crawler, so real crawlers' headers that copy a browser's, such
/// as Googlebot Smartphone's, still give the crawler. `None` if nothing is a product
/// token (RFC 9110 §5.6.2).
pub(crate) fn crawler_in_header(header: &str) -> Option<&str> {
    let header = Header::read(header);
    let after_compatible = header.comments.iter().flat_map(|items| {
        items
            .windows(2)
            .filter(|pair| first_word(pair[0]) == "compatible")
            .map(|pair| first_word(pair[1]))
    });
    let linked = header.comments.iter().flat_map(|items| {
        items.iter().enumerate().filter_map(|(i, item)| {
            let words = || item.split_whitespace();
            if !words().any(is_link) {
                return None;
            }
            // The link is the item's first word: the crawler is the item before.
            let named = if is_link(first_word(item)) {
                first_word(items.get(i.checked_sub(1)?)?)
            } else {
                first_word(item)
            };
            (named != "compatible").then_some(named)
        })
    });
    let not_a_browser =
        header.products.iter().copied().filter(|word| {
            !BROWSER_PRODUCTS.contains(&name_of(word).to_ascii_lowercase().as_str())
        });
    after_compatible
        .chain(linked)
        .chain(not_a_browser)
        .chain(header.products.iter().copied())
        .map(name_of)
        .find(|name| !name.is_empty() && name.chars().all(is_tchar))
}

/// A header cut into its products (outside parentheses) and its comments, each comment a
/// list of items (split at `;`).
struct Header<'a> {
    products: Vec<&'a str>,
    comments: Vec<Vec<&'a str>>,
}

impl<'a> Header<'a> {
    fn read(header: &'a str) -> Header<'a> {
        let mut products = Vec::new();
        let mut comments = Vec::new();
        let mut depth = 0usize;
        let mut start = 0;
        for (at, c) in header.char_indices() {
            match c {
                '(' => {
                    if depth == 0 {
                        products.extend(words(&header[start..at]));
                        start = at + 1;
                    }
                    depth += 1;
                }
                ')' if depth > 0 => {
                    depth -= 1;
                    if depth == 0 {
                        comments.push(header[start..at].split(';').map(str::trim).collect());
                        start = at + 1;
                    }
                }
                _ => {}
            }
        }
        // An unclosed comment runs to the end.
        if depth == 0 {
            products.extend(words(&header[start..]));
        } else {
            comments.push(header[start..].split(';').map(str::trim).collect());
        }
        Header { products, comments }
    }
}

/// The products of a stretch outside comments: words split at white space (and at the
/// `;` and `,` some crawlers put there).
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() || c == ';' || c == ',')
        .filter(|word| !word.is_empty())
}

/// A comment item's first word.
fn first_word(item: &str) -> &str {
    words(item).next().unwrap_or("")
}

/// A product's name, without its version.
fn name_of(product: &str) -> &str {
    product.split('/').next().unwrap_or("")
}

fn is_link(word: &str) -> bool {
    let word = word.strip_prefix('+').unwrap_or(word);
    word.starts_with("http://") || word.starts_with("https://")
}

/// RFC 9110 §5.6.2 `tchar`.
pub(crate) fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// Products that browsers send, which never name a crawler.
const BROWSER_PRODUCTS: [&str; 16] = [
    "mozilla",
    "applewebkit",
    "chrome",
    "chromium",
    "headlesschrome",
    "crios",
    "safari",
    "gecko",
    "khtml",
    "version",
    "mobile",
    "firefox",
    "edg",
    "edge",
    "opr",
    "trident",
];

#[cfg(test)]
mod tests {
    use super::crawler_in_header;

    /// Headers as the crawlers document them.
    #[test]
    fn real_crawler_headers_name_the_crawler() {
        let cases = [
            ("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"),
            ("Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.71 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"),
            ("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)", "Applebot"),
            ("Mozilla/5.0 (iPhone; CPU iPhone OS 14_7_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/14.1.2 Mobile/15E148 Safari/604.1 (compatible; AdsBot-Google-Mobile; +http://www.google.com/mobile/adsbot.html)", "AdsBot-Google-Mobile"),
            ("Mozilla/5.0 (compatible; archive.org_bot +http://archive.org/details/archive.org_bot)", "archive.org_bot"),
            ("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36", "bingbot"),
            ("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)", "GPTBot"),
            ("CCBot/2.0 (https://commoncrawl.org/faq/)", "CCBot"),
            ("DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)", "DuckDuckBot"),
            ("ia_archiver (+http://www.alexa.com/site/help/webmasters; crawler@alexa.com)", "ia_archiver"),
            ("ia_archiver", "ia_archiver"),
            ("Mediapartners-Google", "Mediapartners-Google"),
            ("facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", "facebookexternalhit"),
            ("curl/8.0", "curl"),
        ];
        for (header, crawler) in cases {
            assert_eq!(crawler_in_header(header), Some(crawler), "{header}");
        }
    }

    #[test]
    fn a_browser_names_mozilla_and_nothing_names_none() {
        let chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
        assert_eq!(crawler_in_header(chrome), Some("Mozilla"));
        assert_eq!(crawler_in_header("   "), None);
        assert_eq!(crawler_in_header("(just a comment)"), None);
        assert_eq!(crawler_in_header("\u{e9}t\u{e9}/1.0"), None);
    }

    #[test]
    fn comments_nest_and_may_be_left_open() {
        assert_eq!(
            crawler_in_header("Mozilla/5.0 (x (y) ; compatible; FooBot/1)"),
            Some("FooBot")
        );
        assert_eq!(
            crawler_in_header("Mozilla/5.0 (compatible; FooBot/1"),
            Some("FooBot")
        );
    }
}
