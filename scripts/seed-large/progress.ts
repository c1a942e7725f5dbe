/**
 * A one-line progress bar on stderr, redrawn with \r at most every 80 ms. A few lines by hand rather
 * than a dependency: the generator only needs a label, a bar and a count. When stderr is not a
 * terminal (CI logs) it prints one line as each stage ends instead.
 */
export class ProgressBar {
  readonly #stream: NodeJS.WriteStream
  readonly #tty: boolean
  #label = ''
  #total = 1
  #done = 0
  #drawnAt = 0
  #started = 0

  constructor(stream: NodeJS.WriteStream = process.stderr) {
    this.#stream = stream
    this.#tty = stream.isTTY === true
  }

  start(label: string, total: number): void {
    this.#label = label
    this.#total = Math.max(1, total)
    this.#done = 0
    this.#drawnAt = 0
    this.#started = performance.now()
    this.#draw()
  }

  tick(amount = 1): void {
    this.#done += amount
    if (this.#tty && performance.now() - this.#drawnAt >= 80) this.#draw()
  }

  finish(): void {
    this.#done = this.#total
    const seconds = ((performance.now() - this.#started) / 1000).toFixed(1)
    if (this.#tty) {
      this.#draw()
      this.#stream.write(` ${seconds}s\n`)
    } else {
      this.#stream.write(`${this.#label}: ${this.#total} in ${seconds}s\n`)
    }
  }

  #draw(): void {
    if (!this.#tty) return
    this.#drawnAt = performance.now()
    const share = Math.min(1, this.#done / this.#total)
    const width = 28
    const filled = Math.round(share * width)
    const bar = '█'.repeat(filled) + '░'.repeat(width - filled)
    const percent = `${Math.floor(share * 100)}`.padStart(3)
    this.#stream.write(`\r${this.#label.padEnd(12)} ${bar} ${percent}% ${this.#done}/${this.#total}\x1b[K`)
  }
}
