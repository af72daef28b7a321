/**
 * DynamoDB's expression language, entered through {@link com.multikey.dynamodb.expression.Expressions}: a
 * tokenizer ({@code Lexer}), parsers to a sealed syntax tree ({@code OperandParser}, {@code ConditionParser},
 * {@code UpdateParser}, with {@code Source} holding the tokens, the request's names and values and the error
 * stages), an evaluator for conditions ({@code Evaluator}), document path navigation ({@code Documents}) and the
 * parsed forms the engine uses (condition, update, projection, key condition).
 *
 * <p>Errors are ValidationExceptions worded as DynamoDB words them, and when an expression has several
 * problems the one DynamoDB reports is chosen: redundant parentheses, then syntax, then misplaced functions,
 * then reserved words, then repeated update sections, then everything its validator checks, each stage in
 * text order.
 */
package com.multikey.dynamodb.expression;
