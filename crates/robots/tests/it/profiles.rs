//! Every documented difference between the RFC 9309 and Google profiles, with the
//! same input run through both so that each side of the difference is asserted.

use robots::{Agent, Options, Profile, Reason, Robots};

/// (allowed, deciding line) under each profile, for the agent given as a token.
fn both(file: &[u8], agent: &str, url: &str) -> [(bool, Option<u32>); 2] {
    [Profile::Rfc9309, Profile::Google].map(|profile| {
        let robots = Robots::parse_with(file, Options::new().profile(profile));
        let agent = match profile {
            Profile::Rfc9309 => Agent::new(agent).unwrap_or_else(|_| Agent::verbatim(agent)),
            Profile::Google => Agent::verbatim(agent),
        };
        let v = robots.check(&agent, url);
        (v.allowed(), v.decided_by().map(|r| r.line()))
    })
}

#[test]
fn keys_by_prefix_only_in_google() {
    let file = b"User-agent: *\nDisallowed: /p\n";
    let [rfc, google] = both(file, "Bot", "/p");
    assert_eq!(rfc, (true, None));
    assert_eq!(google, (false, Some(2)));
}

#[test]
fn user_agent_line_token_rfc_up_to_slash_google_alpha_run() {
    let file = b"User-agent: MJ12bot\nDisallow: /\n";
    let [rfc, google] = both(file, "MJ12bot", "/x");
    assert_eq!(rfc, (false, Some(2)));
    assert_eq!(google, (true, None));
    // Google reads the line as naming `MJ`.
    assert_eq!(both(file, "MJ", "/x")[1], (false, Some(2)));
}

#[test]
fn star_with_a_version_is_global_only_in_rfc9309() {
    // RFC 9309 reads the product token, which `/` ends; Google reads `*` as a word.
    // Either way, `*` followed by a space is `*`, and `*` joined to more is not.
    for (value, rfc_global, google_global) in [
        ("*", true, true),
        ("*/1.0", true, false),
        ("* (compatible)", true, true),
        ("*bot", false, false),
        ("**", false, false),
    ] {
        let file = format!("User-agent: {value}\nDisallow: /p\n");
        let [rfc, google] = both(file.as_bytes(), "SomeBot", "/p");
        assert_eq!((!rfc.0, !google.0), (rfc_global, google_global), "{value}");
    }
}

#[test]
fn crawler_name_compared_as_given_only_in_google() {
    let file = b"User-agent: FooBot\nDisallow: /\n";
    let [rfc, google] = both(file, "FooBot/1.0", "/x");
    assert_eq!(rfc, (false, Some(2)));
    assert_eq!(google, (true, None));
}

#[test]
fn long_lines_cut_only_in_google() {
    let mut file = b"User-agent: *\nDisallow: /".to_vec();
    file.extend(std::iter::repeat_n(b'a', 17_000));
    file.extend_from_slice(b"b\n");
    let url = format!("/{}b", "a".repeat(17_000));
    let prefix = format!("/{}", "a".repeat(16_700));
    // RFC 9309 reads the whole pattern: only the full path matches.
    let [rfc, google] = both(&file, "Bot", &prefix);
    assert_eq!(rfc, (true, None));
    assert_eq!(google, (false, Some(2)));
    assert_eq!(both(&file, "Bot", &url)[0], (false, Some(2)));
}

#[test]
fn nul_ends_a_line_only_in_google() {
    let file = b"User-agent: *\nDisallow: /a\0b\n";
    let [rfc, google] = both(file, "Bot", "/a");
    assert_eq!(rfc, (true, None));
    assert_eq!(google, (false, Some(2)));
}

#[test]
fn empty_disallow_names_its_line_only_in_google() {
    let file = b"User-agent: *\nDisallow:\n";
    let [rfc, google] = both(file, "Bot", "/x");
    assert_eq!(rfc, (true, None));
    assert_eq!(google, (true, Some(2)));
    // Named, yet it disallowed nothing: the verdict says so.
    let reason = |profile| {
        let robots = Robots::parse_with(file, Options::new().profile(profile));
        robots.check(&Agent::verbatim("Bot"), "/x").reason()
    };
    assert_eq!(reason(Profile::Rfc9309), Reason::NoMatch);
    assert_eq!(reason(Profile::Google), Reason::EmptyDisallow);
}

#[test]
fn paths_are_normalised_only_in_rfc9309() {
    let file = b"User-agent: *\nDisallow: /~user\n";
    let [rfc, google] = both(file, "Bot", "/%7Euser");
    assert_eq!(rfc, (false, Some(2)));
    assert_eq!(google, (true, None));
    let file = "User-agent: *\nDisallow: /café\n".as_bytes();
    let [rfc, google] = both(file, "Bot", "/café");
    assert_eq!(rfc, (false, Some(2)));
    assert_eq!(google, (true, None));
}

#[test]
fn robots_txt_always_allowed_only_in_rfc9309() {
    let file = b"User-agent: *\nDisallow: /\n";
    let [rfc, google] = both(file, "Bot", "/robots.txt");
    assert_eq!(rfc, (true, None));
    assert_eq!(google, (false, Some(2)));
}

#[test]
fn always_allows_is_what_a_file_disallowing_everything_still_allows() {
    // What a crawler may fetch when the robots.txt is unreachable (everything
    // disallowed, no file to check against) must agree with the profile's checks.
    let urls = [
        "/robots.txt",
        "https://example.com/robots.txt",
        "https://example.com/robots.txt#top",
        "/%72obots.txt",
        "/robots.txt?x=1",
        "/robots.txtx",
        "/ROBOTS.TXT",
        "/a/robots.txt",
        "/",
    ];
    let agent = Agent::new("Bot").unwrap();
    for profile in [Profile::Rfc9309, Profile::Google] {
        let robots = Robots::parse_with(
            b"User-agent: *\nDisallow: /\n",
            Options::new().profile(profile),
        );
        for url in urls {
            assert_eq!(
                profile.always_allows(url),
                robots.check(&agent, url).allowed(),
                "{profile:?} {url}"
            );
        }
    }
    assert!(Profile::Rfc9309.always_allows("/%72obots.txt"));
    assert!(!Profile::Google.always_allows("/robots.txt"));
}

#[test]
fn index_html_allows_the_directory_only_in_google() {
    let file = b"User-agent: *\nDisallow: /d/\nAllow: /d/index.html\n";
    let [rfc, google] = both(file, "Bot", "/d/");
    assert_eq!(rfc, (false, Some(2)));
    assert_eq!(google, (true, Some(3)));
    // Both allow the page itself.
    assert_eq!(both(file, "Bot", "/d/index.html"), [(true, Some(3)); 2]);
}

#[test]
fn embargo_lines_are_rules_only_in_rfc9309() {
    // As a rule, Archive-Embargo ends the group's user-agent lines in RFC 9309, so `b`
    // starts a group of its own; Google sees an unknown record and one group for both.
    let file = b"User-agent: a\nArchive-Embargo: w\nUser-agent: b\nDisallow: /p\n";
    let [rfc, google] = both(file, "a", "/p");
    assert_eq!(rfc, (true, None));
    assert_eq!(google, (false, Some(4)));
    let robots = Robots::parse_with(file, Options::new().profile(Profile::Google));
    let archiver = Agent::verbatim("a").honouring_embargo();
    assert_eq!(robots.check(&archiver, "/x").embargo(), None);
}

#[test]
fn a_semicolon_in_userinfo_starts_the_path_only_in_google() {
    let file = b"User-agent: *\nDisallow: /private\n";
    let [rfc, google] = both(file, "Bot", "https://user;x@example.com/private");
    assert_eq!(rfc, (false, Some(2)));
    assert_eq!(google, (true, None));
}

#[test]
fn a_nul_in_the_url_ends_the_path_only_in_google() {
    // Google's matcher holds the path as a C string: rules see `/a`, which `/a$`
    // matches; RFC 9309 encodes the NUL and matches `/a%00b`.
    let file = b"User-agent: *\nDisallow: /a$\nDisallow: /a%00\n";
    let [rfc, google] = both(file, "Bot", "https://example.com/a\0b#c");
    assert_eq!(rfc, (false, Some(3)));
    assert_eq!(google, (false, Some(2)));
    // The cut comes after the URL is read: a NUL before the path does not end it.
    let [rfc, google] = both(file, "Bot", "https://exa\0mple.com/a");
    assert_eq!(rfc, (false, Some(2)));
    assert_eq!(google, (false, Some(2)));
    assert_eq!(both(file, "Bot", "/a\0")[1], (false, Some(2)));
    assert_eq!(both(file, "Bot", "/ab\0")[1], (true, None));
}
