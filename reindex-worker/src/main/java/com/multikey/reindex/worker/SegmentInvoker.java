package com.multikey.reindex.worker;

/** Hands a segment to a new invocation of the worker (Lambda's asynchronous Invoke on AWS). */
interface SegmentInvoker {

    void invokeAsync(String jobId, int segment);
}
