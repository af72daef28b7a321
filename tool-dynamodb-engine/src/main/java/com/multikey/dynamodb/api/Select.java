package com.multikey.dynamodb.api;

/** A Query's or Scan's Select. */
enum Select { ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES, SPECIFIC_ATTRIBUTES, COUNT }
