/**
 * One question at a time at the terminal. The permission prompt and a server's form (elicitation)
 * both read lines from the same reader; two of them open at once would take each other's answers,
 * so each waits for the one before it. While a question is open, `begin` and `end` let the REPL
 * keep everything else off the screen (the running tool's status line, notices, results) and drop
 * the lines typed before the question was shown: a `y` typed ahead must not answer a question the
 * user has not read.
 */
export class TerminalQuestions<About = unknown> {
  private previous: Promise<unknown> = Promise.resolve();

  constructor(private readonly hooks: { begin(about: About | undefined): void; end(): void } = { begin() {}, end() {} }) {}

  /** Runs `question` once every question asked before it is done; resolves what it resolves. `about` says what it asks (begin hears it). */
  ask<T>(question: () => Promise<T>, about?: About): Promise<T> {
    const turn = this.previous.then(async () => {
      this.hooks.begin(about);
      try {
        return await question();
      } finally {
        this.hooks.end();
      }
    });
    this.previous = turn.catch(() => undefined);
    return turn;
  }
}
