/**
 * Loaded before every test file (bunfig.toml `[test] preload`): a test that does not ask for the
 * connection keeper runs the way commands ran before it, and no keeper outlives a test. Child
 * processes inherit it; a test that builds a child's env from scratch passes it on itself.
 */
process.env.CAT_CODE_NO_KEEPER = "1";
