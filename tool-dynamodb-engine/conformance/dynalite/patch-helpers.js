// Points dynalite's test/helpers.js at an endpoint of our choice instead of the dynalite server it starts itself,
// and, with DYNALITE_MESSAGES=loose (the default), makes its error assertions compare the error's type and HTTP
// status only, not the message text (DynamoDB's wording has changed since the suite was written).
// Each edit must match exactly as many times as stated, so a different suite version fails here, loudly.
'use strict'
const fs = require('fs')

const file = process.argv[2]
let text = fs.readFileSync(file, 'utf8')

function edit(name, from, to, times = 1) {
  const count = text.split(from).length - 1
  if (count !== times) {
    console.error(`patch-helpers: "${name}" matched ${count} times, expected ${times}: is this the pinned dynalite version?`)
    process.exit(1)
  }
  text = text.split(from).join(to)
}

// no dynalite server of its own: the engine is already listening
edit('require dynalite', "    dynalite = require('..')\n", "    dynalite = null\n")
edit('dynalite server', 'var dynaliteServer = dynalite({path: process.env.DYNALITE_PATH})',
  'var dynaliteServer = {listen: function(port, cb) { cb() }, close: function(cb) { cb() }}')
// the endpoint: ENGINE_HOST / ENGINE_PORT
edit('endpoint', "{host: '127.0.0.1', port: port, method: 'POST'}",
  "{host: process.env.ENGINE_HOST || '127.0.0.1', port: Number(process.env.ENGINE_PORT), method: 'POST'}")

// An assertion that fails inside a response callback throws where mocha cannot tell which test it belongs to (and,
// once a file's tests have ended, stops the process): each assert* function hands its failure to its test instead.
for (const name of ['assertSerialization', 'assertAccessDenied', 'assertValidation', 'assertNotFound',
  'assertInUse', 'assertConditional']) {
  const start = text.indexOf(`function ${name}(`)
  const end = text.indexOf('\n}\n', start) + 3
  let body = text.slice(start, end)
  const call = body.match(/request\(opts\(target, data\), function\(err, res\) \{/)
  if (start < 0 || !call || !body.endsWith('    done()\n  })\n}\n')) {
    console.error(`patch-helpers: ${name} is not as expected: is this the pinned dynalite version?`)
    process.exit(1)
  }
  body = body.replace(call[0], 'request(opts(target, data), handingFailuresTo(done, function(err, res) {')
  body = body.slice(0, -'  })\n}\n'.length) + '  }))\n}\n'
  text = text.slice(0, start) + body + text.slice(end)
}
text += `
function handingFailuresTo(done, callback) {
  done = once(done)
  return function(err, res) {
    try {
      callback(err, res)
    } catch (e) {
      done(e)
    }
  }
}
`

const loose = (process.env.DYNALITE_MESSAGES || 'loose') === 'loose'
if (loose) {
  // SerializationException: type and status, not the Java parser's message
  edit('serialization message', `    res.body.should.eql({
      __type: 'com.amazon.coral.service#SerializationException',
      Message: msg,
    })`, `    res.body.__type.should.equal('com.amazon.coral.service#SerializationException')`)
  // ValidationException: type and status, not the message (one or several "validation errors")
  edit('validation message', `    if (msg instanceof RegExp) {
      res.body.message.should.match(msg)
    } else if (Array.isArray(msg)) {`, `    if (true) {
      res.body.should.have.property('message')
    } else if (Array.isArray(msg)) {`)
  // ResourceNotFound / ResourceInUse: type and status
  for (const type of ['ResourceNotFoundException', 'ResourceInUseException']) {
    edit(type + ' message', `    res.body.should.eql({
      __type: 'com.amazonaws.dynamodb.v20120810#${type}',
      message: msg,
    })`, `    res.body.__type.should.equal('com.amazonaws.dynamodb.v20120810#${type}')`)
  }
}
fs.writeFileSync(file, text)
